import { useLayoutEffect, useRef } from 'react';
import type { Promotion } from '../../api/orders';
import { formatDecimalMoney, formatPercent } from '../../i18n/amounts';
import { useController, useI18n } from '../../ui/context';
import { useTexts } from '../../ui/texts';
import { refocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';

export type PromoMessage = { kind: 'applied' | 'error'; text: string } | null;

interface Props {
  value: string;
  applied: Promotion | null;
  checking: boolean;
  message: PromoMessage;
  onChange: (value: string) => void;
  onApply: () => void;
  onRemove: () => void;
}

export function usePromoValue() {
  const { locale } = useI18n();
  return (p: Promotion, defaultCurrency: string): string => {
    const value = Number(p.value);
    if (!Number.isFinite(value)) return String(p.value);
    if (p.type.toLowerCase().startsWith('percent')) return formatPercent(value, locale);
    // Fixed amounts are in the catalog's default currency (WHMCS model).
    return formatDecimalMoney(value, defaultCurrency, locale);
  };
}

/** Promo code: shown uppercase; the message (applied or not) sits above the field like any field error. */
export function PromoField({ value, applied, checking, message, onChange, onApply, onRemove }: Props) {
  const { t } = useTexts('checkout');
  const c = useController();
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Apply and Remove replace each other: once the check is over, focus goes from the pressed one
  // (gone) to the one in its place, or to the field when the code was removed.
  const pressed = useRef(false);
  // A code from the page or the landing URL is checked while the buyer may already be on Apply
  // without pressing it: when the answer swaps Apply for Remove, the focus goes along (read before
  // the commit, which removes the focused button).
  const focusedButton = buttonRef.current && c.host.shadowRoot?.activeElement === buttonRef.current ? buttonRef.current : null;
  useLayoutEffect(() => {
    if (pressed.current && !checking) {
      pressed.current = false;
      refocus(c.host, applied ? buttonRef.current : inputRef.current);
    } else if (focusedButton && !focusedButton.isConnected) refocus(c.host, buttonRef.current);
  });
  return (
    <div className="sc-field">
      <label className="sc-label" htmlFor="sc-promo">
        {t.promoCode}
      </label>
      <div aria-live="polite">
        {message && (
          <p
            className={message.kind === 'applied' ? 'sc-field-ok' : 'sc-field-error'}
            id="sc-promo-message"
            role={message.kind === 'error' ? 'alert' : 'status'}
            data-testid="promo-message"
          >
            {message.kind === 'applied' && <Icon name="tag" />}
            {message.text}
          </p>
        )}
      </div>
      <div className="sc-inline">
        <input
          ref={inputRef}
          id="sc-promo"
          className={`sc-input sc-upper${applied ? ' is-applied' : ''}`}
          type="text"
          name="promocode"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          placeholder={t.promoPlaceholder}
          value={value}
          readOnly={!!applied}
          aria-describedby={message ? 'sc-promo-message' : undefined}
          aria-invalid={message?.kind === 'error' ? true : undefined}
          data-testid="promo-input"
          onChange={(e) => onChange(e.target.value.toUpperCase())}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (!applied && value.trim()) onApply();
            }
          }}
        />
        {applied ? (
          // Keyed: Remove and Apply are two buttons, so the pressed one really goes (one element
          // reused would keep the focus while turning disabled, and the browser would drop it).
          <button
            key="remove"
            ref={buttonRef}
            type="button"
            className="sc-btn sc-btn-ghost"
            onClick={() => {
              pressed.current = true;
              onRemove();
            }}
            data-testid="promo-remove"
          >
            {t.remove}
          </button>
        ) : (
          <button
            key="apply"
            ref={buttonRef}
            type="button"
            className="sc-btn sc-btn-secondary"
            onClick={() => {
              if (checking) return;
              pressed.current = true;
              onApply();
            }}
            // Busy, not disabled: a disabled button would drop the keyboard focus.
            disabled={!value.trim()}
            aria-disabled={checking || undefined}
            aria-busy={checking || undefined}
            data-testid="promo-apply"
          >
            {checking ? <Icon name="spinner" className="sc-spin" /> : null}
            {t.apply}
          </button>
        )}
      </div>
    </div>
  );
}
