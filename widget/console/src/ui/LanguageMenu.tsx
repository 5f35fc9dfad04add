// The console's language menu (in the header, on every page): each language by its own name, the
// choice kept in this browser (messages.ts) and applied at once.
import { useId } from 'react';
import { LOCALE_NAMES, LOCALES, t, type LocaleCode } from '../messages';

export function LanguageMenu({ value, onChange }: { value: LocaleCode; onChange: (code: LocaleCode) => void }) {
  const id = useId();
  return (
    <span className="language">
      <label htmlFor={id} className="visually-hidden">
        {t.languageLabel}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as LocaleCode)} data-testid="language">
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code === 'en' ? 'en' : code.slice(0, 2)}>
            {LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
    </span>
  );
}
