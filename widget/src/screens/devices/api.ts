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

/** A QR code as the server drew it: its square (viewBox) and its dark modules as one path. */
export interface QrPicture {
  viewBox: string;
  d: string;
}

/**
 * The line's QR code, read out of the SVG the server sends and drawn by the widget itself: no
 * blob: or data: image, which a host page's strict CSP (img-src 'self') would refuse.
 */
export async function qrImage(c: Client, serviceId: string, kind: QrKind): Promise<QrPicture> {
  const res = await c.send('GET', `/services/${encodeURIComponent(serviceId)}/qr.svg`, {
    auth: true,
    query: { kind },
    headers: { Accept: 'image/svg+xml' },
  });
  const svg = new DOMParser().parseFromString(await res.text(), 'image/svg+xml').documentElement;
  const viewBox = svg.getAttribute('viewBox') ?? '';
  const d = [...svg.querySelectorAll('path')].map((p) => p.getAttribute('d') ?? '').join(' ');
  if (svg.localName !== 'svg' || !/^0 0 \d+ \d+$/.test(viewBox) || !d.trim()) throw new Error('not a QR code');
  return { viewBox, d };
}

/**
 * An Enigma2 command with the line's values. The catalog keeps its placeholders inside a
 * single-quoted URL; each value is encoded for the URL's query (every byte but A–Z a–z 0–9 - _ . ~,
 * as the server's catalog.ExpandCommand) and then for the single quotes (' as '\''), so a username
 * or password with ", $, `, \ or ' is data on the receiver's shell, never code.
 */
export function fillCommand(template: string, line: { serverHostname: string; username: string; password: string }): string {
  const quoted = (v: string) => v.replaceAll("'", "'\\''");
  const value = (v: string) => quoted(encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()));
  return template
    .replaceAll('{server}', quoted(line.serverHostname))
    .replaceAll('{username}', value(line.username))
    .replaceAll('{password}', value(line.password));
}

/** A device template with the line's values: {server} is host:port, as the catalog documents. */
export function fill(template: string, line: { serverHostname: string; username: string; password: string }): string {
  return template
    .replaceAll('{server}', line.serverHostname)
    .replaceAll('{username}', line.username)
    .replaceAll('{password}', line.password);
}
