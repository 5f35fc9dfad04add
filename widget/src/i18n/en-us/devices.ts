import { texts as en, type DevicesTexts } from '../en/devices';

/** The device setup in US English: en (no spelling differs). */
export const texts: DevicesTexts = { ...en };
