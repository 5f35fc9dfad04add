// Config options of a product: id 2 extra connections (quantity), id 4 proxy protection (yes/no).
import type { ConfigOption, Cycle, Product } from '../api/schemas';

export const EXTRA_CONNECTIONS_ID = 2;
export const PROXY_PROTECTION_ID = 4;

export function findOption(product: Product, which: 'extra' | 'proxy'): ConfigOption | undefined {
  const [id, type] = which === 'extra' ? [EXTRA_CONNECTIONS_ID, 'quantity'] : [PROXY_PROTECTION_ID, 'yesno'];
  return product.configOptions.find((o) => o.id === id) ?? product.configOptions.find((o) => o.type === type);
}

/**
 * Extra connections. The spec keeps a connection count (default 1) and sends "0 when the count is 1
 * or less"; the API takes the number of EXTRA connections. So the count the buyer sets is the TOTAL
 * number of connections (1 included, at most 1 + the option's maxQty), labelled "Connections", and
 * the API gets count − 1: a count of 1 or less is 0 extra, exactly as the spec says.
 */
export function extraConnectionsFor(enabled: boolean, connections: number): number {
  if (!enabled || !Number.isFinite(connections)) return 0;
  return Math.max(0, Math.floor(connections) - 1);
}

export function maxConnections(option: ConfigOption | undefined): number {
  return 1 + Math.max(0, option?.maxQty ?? 0);
}

export function optionPrice(option: ConfigOption | undefined, cycle: Cycle | null) {
  if (!option || !cycle) return null;
  return option.pricing[cycle] ?? null;
}
