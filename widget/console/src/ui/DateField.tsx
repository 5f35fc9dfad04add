// A date in the operator's own format (issue 26, point 8): the browser's <input type="date"> shows
// the browser's format (mm/dd/yyyy in an en-US Chromium, whatever the console's language), so a
// German operator read "12/01/2026" for 1 December. react-aria's DateField (a kept accessible
// primitive, @internationalized/date underneath) lays out day, month and year segments in the
// console's locale (dd.mm.yyyy in German), each a spin button the keyboard types into, with leading zeros (01.12.2026); the value
// in and out stays the API's ISO day ("2026-12-01", "" for none).
import { parseDate, type CalendarDate } from '@internationalized/date';
import { DateField as AriaDateField, DateInput, DateSegment, I18nProvider, Label, Text } from 'react-aria-components';
import { tag } from '../messages';

export interface DateFieldProps {
  label: string;
  /** value is an ISO day (YYYY-MM-DD); "" is no date. */
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  readOnly?: boolean;
  required?: boolean;
  /** testId names the field's group for tests. */
  testId?: string;
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

export function DateField({ label, value, onChange, hint, readOnly, required, testId }: DateFieldProps) {
  return (
    <I18nProvider locale={tag()}>
      <AriaDateField
        className="field"
        value={isoDay(value)}
        onChange={(d) => onChange(d ? d.toString() : '')}
        isReadOnly={readOnly}
        isRequired={required}
        granularity="day"
        shouldForceLeadingZeros
        data-testid={testId}
      >
        <Label>{label}</Label>
        <DateInput className="date-input">{(segment) => <DateSegment segment={segment} className="date-segment" />}</DateInput>
        {hint && (
          <Text slot="description" className="hint">
            {hint}
          </Text>
        )}
      </AriaDateField>
    </I18nProvider>
  );
}
