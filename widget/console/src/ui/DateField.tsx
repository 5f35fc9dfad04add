// A date in the operator's own format (issue 26, point 8): the browser's <input type="date"> shows
// the browser's format (mm/dd/yyyy in an en-US Chromium, whatever the console's language), so a
// German operator read "12/01/2026" for 1 December. react-aria's date field (useDateField and
// useDateSegment, a kept accessible primitive, @internationalized/date underneath) lays out day,
// month and year segments in the console's locale (dd.mm.yyyy in German, yyyy-mm-dd in English as
// everywhere in the console), each a spin button the keyboard types into, with leading zeros
// (01.12.2026); the value in and out stays the API's ISO day ("2026-12-01", "" for none).
//
// Built from the hooks rather than react-aria-components' DateField, which brings every calendar
// system (Japanese, Hebrew, Islamic, …): the console's seven locales all count days in the
// Gregorian calendar, which is the only one given here.
import { GregorianCalendar, parseDate, type CalendarDate } from '@internationalized/date';
import { useMemo, useRef } from 'react';
import { I18nProvider } from 'react-aria/I18nProvider';
import { useDateField, useDateSegment } from 'react-aria/useDateField';
import { useDateFieldState, type DateFieldState, type DateSegment } from 'react-stately/useDateFieldState';
import { isoDates } from '../format';
import { tag } from '../messages';

export interface DateFieldProps {
  label: string;
  /** value is an ISO day (YYYY-MM-DD); "" is no date. */
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  readOnly?: boolean;
  required?: boolean;
}

/** isoDay turns the API's day into the field's value: null for "" or anything that is not a day. */
export function isoDay(value: string): CalendarDate | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  try {
    return parseDate(value);
  } catch {
    return null;
  }
}

/**
 * fieldLocale lays the segments out as the console shows days elsewhere (format.ts): in English
 * YYYY-MM-DD (English-speaking Canada's order, English segment names), else the language's own.
 */
export const fieldLocale = (): string => (isoDates() ? 'en-CA' : tag());

const gregorian = () => new GregorianCalendar();

export function DateField(props: DateFieldProps) {
  const locale = fieldLocale();
  return (
    <I18nProvider locale={locale}>
      <Field {...props} locale={locale} />
    </I18nProvider>
  );
}

function Field({ label, value, onChange, hint, readOnly, required, locale }: DateFieldProps & { locale: string }) {
  // One value object per day: the state compares the controlled value by identity.
  const day = useMemo(() => isoDay(value), [value]);
  const state = useDateFieldState({
    label,
    value: day,
    onChange: (d) => onChange(d ? d.toString() : ''),
    isReadOnly: readOnly,
    isRequired: required,
    granularity: 'day',
    shouldForceLeadingZeros: true,
    locale,
    createCalendar: gregorian,
  });
  const ref = useRef<HTMLDivElement>(null);
  const { labelProps, fieldProps, descriptionProps } = useDateField(
    { label, description: hint, isReadOnly: readOnly, isRequired: required },
    state,
    ref,
  );
  return (
    <div className="field" data-readonly={readOnly || undefined}>
      <span {...labelProps} className="label">
        {label}
      </span>
      <div {...fieldProps} ref={ref} className="date-input">
        {state.segments.map((s, i) => (
          <Segment key={i} segment={s} state={state} />
        ))}
      </div>
      {hint && (
        <span {...descriptionProps} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}

function Segment({ segment, state }: { segment: DateSegment; state: DateFieldState }) {
  const ref = useRef<HTMLSpanElement>(null);
  const { segmentProps } = useDateSegment(segment, state, ref);
  return (
    <span
      {...segmentProps}
      ref={ref}
      className="date-segment"
      data-type={segment.type}
      data-placeholder={segment.isPlaceholder || undefined}
    >
      {segment.text}
    </span>
  );
}
