import { forwardRef, useEffect, useRef, useState } from 'react';
import { useTexts } from './texts';
import { timing } from '../core/timing';
import { useSheet } from '../element/styles';
import componentsCss from './components.css?inline';

/** Spec §5: non-space text, @, non-space text, dot, non-space text. */
export const EMAIL_RULE = /^\S+@\S+\.\S+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_RULE.test(email);
}

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Set by the pay button: show the verdict at once ("required" when empty). */
  forced: number;
}

/**
 * The email is checked only when present and the message shows only when invalid (spec §5); it
 * appears as red text above the field, a moment after typing stops or at once on leaving the field.
 */
export const EmailField = forwardRef<HTMLInputElement, Props>(function EmailField({ value, onChange, forced }, ref) {
  useSheet(componentsCss);
  const { t } = useTexts('checkout');
  const [checked, setChecked] = useState<string | null>(value ? value : null);
  const [required, setRequired] = useState(false);
  const shown = useRef(false);

  useEffect(() => {
    const timer = setTimeout(() => setChecked(value), timing.emailDelayMs);
    return () => clearTimeout(timer);
  }, [value]);

  useEffect(() => {
    if (!forced) return;
    setChecked(value);
    setRequired(value.trim() === '');
    // Only the pay button's press changes `forced`; the current value is read, not tracked.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [forced]);

  const invalid = value.trim() !== '' && !isValidEmail(value.trim());
  // Once shown, the message stays while the value is still invalid (no blinking while typing).
  const showInvalid = invalid && (checked === value || shown.current);
  shown.current = showInvalid;
  const showRequired = required && value.trim() === '';
  const message = showInvalid ? t.errors.invalid_email : showRequired ? t.emailRequired : null;

  return (
    <div className="sc-field">
      <label className="sc-label" htmlFor="sc-email">
        {t.email}
      </label>
      {message && (
        <p className="sc-field-error" id="sc-email-error" role="alert" data-testid="email-error">
          {message}
        </p>
      )}
      <input
        ref={ref}
        id="sc-email"
        className="sc-input"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        spellCheck={false}
        placeholder={t.emailPlaceholder}
        value={value}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? 'sc-email-error sc-email-hint' : 'sc-email-hint'}
        data-testid="email-input"
        onChange={(e) => {
          setRequired(false);
          onChange(e.target.value);
        }}
        onBlur={() => setChecked(value)}
      />
      <p className="sc-hint" id="sc-email-hint">
        {t.emailHint}
      </p>
    </div>
  );
});
