// Script-tag builds: the English tables hold the texts of en.plans.ts, all the first script shows
// before dist/checkout.js is there; checkout/load.ts completes them in place with the whole tables
// the module brings (english.ts), before any of its screens renders.
import type { Messages } from './en';
import { enGBPlans, enPlans } from './en.plans';

// en-us and en differ in no text of the plan page (i18n/english.test.ts).
export const en = { ...enPlans } as Messages;
export const enUS = { ...enPlans } as Messages;
export const enGB = { ...enGBPlans } as Messages;

export function completeEnglish(whole: { en: Messages; enUS: Messages; enGB: Messages }): void {
  Object.assign(en, whole.en);
  Object.assign(enUS, whole.enUS);
  Object.assign(enGB, whole.enGB);
}
