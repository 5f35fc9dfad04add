// The schemas of the answers after the plan cards, for the client. Here (tests, the npm package) they
// are bundled; the script-tag builds swap in later.lazy.ts, which takes them from dist/checkout.js
// so that the first script does not carry them (scripts/checkout-split.ts, SWAPS).
import * as schemas from './schemas.later';

export type LaterSchemas = typeof schemas;

export function laterSchemas(): LaterSchemas | Promise<LaterSchemas> {
  return schemas;
}
