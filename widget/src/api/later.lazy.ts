// Script-tag builds: the later schemas come with dist/checkout.js. checkout/load.ts names the loader
// when the first script starts; a request made before the chunk is there (the form's gateways and
// currencies, asked for as the plan cards paint) is sent at once and parsed once the chunk arrives.
import type { LaterSchemas } from './later';

let loader: (() => Promise<LaterSchemas>) | null = null;

export function setLaterSchemasLoader(load: () => Promise<LaterSchemas>): void {
  loader = load;
}

export function laterSchemas(): LaterSchemas | Promise<LaterSchemas> {
  return loader ? loader() : Promise.reject(new Error('the Streamcart checkout module has no loader'));
}
