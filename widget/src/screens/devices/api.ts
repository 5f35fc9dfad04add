// What the device panel reads: the catalog's apps and devices (GET /devices: apart from
// GET /storefront, which is on the first paint) and the line's QR codes (GET /services/{id}/qr.svg,
// with the session's bearer: a plain <img src> would be 401).
import * as v from 'valibot';
import type { Client } from '../../api/client';

const AppSchema = v.object({
  name: v.string(),
  platform: v.optional(v.string(), ''),
  setup: v.optional(v.picklist(['xtream', 'm3u']), 'xtream'),
});
// A family this widget does not know is left out rather than failing the panel.
const DeviceSchema = v.object({
  family: v.string(),
  name: v.string(),
  portal: v.optional(v.string(), ''),
  command: v.optional(v.string(), ''),
});
export const SetupSchema = v.object({
  apps: v.optional(v.array(AppSchema), []),
  devices: v.optional(v.array(DeviceSchema), []),
});
export type Setup = v.InferOutput<typeof SetupSchema>;
export type SetupApp = Setup['apps'][number];
export type SetupDevice = Setup['devices'][number];
export type QrKind = 'xtream' | 'm3u';

export const getSetup = (c: Client, locale: string) => c.request(SetupSchema, 'GET', '/devices', { query: { locale } });

/** The line's QR code as an object URL of its SVG; the caller revokes it. */
export async function qrImage(c: Client, serviceId: string, kind: QrKind): Promise<string> {
  const res = await c.send('GET', `/services/${encodeURIComponent(serviceId)}/qr.svg`, {
    auth: true,
    query: { kind },
    headers: { Accept: 'image/svg+xml' },
  });
  return URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: 'image/svg+xml' }));
}

/** A device template with the line's values: {server} is host:port, as the catalog documents. */
export function fill(template: string, line: { serverHostname: string; username: string; password: string }): string {
  return template
    .replaceAll('{server}', line.serverHostname)
    .replaceAll('{username}', line.username)
    .replaceAll('{password}', line.password);
}
