// The billing country of a shop that charges tax: the buyer's own choice, pre-filled with the
// country the quote taxed (their address's by default); a choice other than the address's country
// is confirmed with a ticked box before paying, as the server asks (confirmCountry).
import { useMemo } from 'react';
import type { Tax } from '../../ui/terms';
import { useTexts } from '../../ui/texts';
import { countryNames } from './countries';

export interface BillingCountryProps {
  tax: Tax;
  /** The buyer's choice; '' until they choose (the quote's country is shown). */
  value: string;
  confirmed: boolean;
  /** Pay was pressed without a country, or without confirming one that differs. */
  missing: 'country' | 'confirm' | null;
  onChange: (code: string) => void;
  onConfirm: (confirmed: boolean) => void;
}

/** Whether a billing country differs from the country of the buyer's address (and so needs confirming). */
export function countryDiffers(tax: Tax, chosen: string): boolean {
  return !!tax.ipCountry && !!chosen && chosen !== tax.ipCountry;
}

export function BillingCountry({ tax, value, confirmed, missing, onChange, onConfirm }: BillingCountryProps) {
  const { t, locale } = useTexts('checkout');
  const names = useMemo(() => countryNames(locale), [locale]);
  const chosen = value || tax.country;
  const nameOf = (code: string) => names.find(([c]) => c === code)?.[1] ?? code;
  const differs = countryDiffers(tax, chosen);
  return (
    <div className="sc-field">
      <label className="sc-label" htmlFor="sc-country">
        {t.billingCountry}
      </label>
      <select
        id="sc-country"
        className="sc-input sc-select"
        value={chosen}
        data-testid="billing-country"
        aria-describedby="sc-country-hint"
        aria-invalid={missing === 'country' || undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {!chosen && <option value="">{t.chooseCountry}</option>}
        {names.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      <p className="sc-hint" id="sc-country-hint">
        {t.billingCountryHint}
      </p>
      {missing === 'country' && !chosen && (
        <p className="sc-field-error" role="alert" data-testid="country-error">
          {t.countryRequired}
        </p>
      )}
      {differs && (
        <label className="sc-check">
          <input type="checkbox" checked={confirmed} data-testid="confirm-country" onChange={(e) => onConfirm(e.target.checked)} />
          <span>{t.confirmCountry(nameOf(chosen), nameOf(tax.ipCountry))}</span>
        </label>
      )}
      {differs && missing === 'confirm' && !confirmed && (
        <p className="sc-field-error" role="alert" data-testid="confirm-country-error">
          {t.confirmCountryRequired}
        </p>
      )}
    </div>
  );
}
