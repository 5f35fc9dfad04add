// "Set up your device" on the success page and in the services view, queried inside the shadow root.
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { apiError, byDefault, installApi } from '../../test/api/vitest';
import { body } from '../../test/api/fixtures';
import { mount } from '../../test/mount';
import { emptyPersisted, savePersisted } from '../../core/persisted';
import { texts as en } from '../../i18n/en/devices';
import { texts as de } from '../../i18n/de-de/devices';
import { LOCALES } from '../../i18n/locale';
import { loadDevicesTexts } from './texts';

function signedIn(token: string) {
  const p = emptyPersisted();
  savePersisted({
    ...p,
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email: 'buyer@example.com' },
    token,
  });
}

/** The success page of the fixtures' active order, with object URLs and the clipboard recorded. */
async function success(attrs: Record<string, string> = {}, line: Record<string, unknown> = {}) {
  const api = installApi();
  api.on('order.get', ['200.active']);
  api.on('services.get', (r) =>
    byDefault(r)
      .json()
      .then((s: Record<string, unknown>) => ({ ...s, ...line })),
  );
  signedIn('tok-buyer');
  const writeText = vi.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  history.replaceState(null, '', '/?sc_order=ord_storybook01');
  const m = mount(attrs);
  await waitFor(() => m.ui());
  const panel = await m.ui().findByTestId('device-setup');
  return { api, ...m, panel, writeText };
}

describe('device setup', () => {
  it('shows the line’s QR codes on the success page, fetched with the session, and each app’s steps', async () => {
    const { api, panel, writeText } = await success();
    const p = within(panel);
    // Drawn inline from the served SVG's path: no blob: or data: image for a strict host CSP.
    const xtream = await p.findByRole('img', { name: en.qrAlt(en.qrXtream) });
    expect(xtream.tagName.toLowerCase()).toBe('svg');
    expect(xtream.getAttribute('viewBox')).toBe('0 0 29 29');
    expect(xtream.querySelector('path')!.getAttribute('d')).toBe('M4 4h7v7h-7z');
    expect(await p.findByRole('img', { name: en.qrAlt(en.qrM3u) })).toBeTruthy();
    expect(panel.querySelector('img[src^="blob:"], img[src^="data:"]')).toBeNull();
    const calls = api.callsTo('services.qr');
    expect(calls.map((c) => c.query.get('kind')).sort()).toEqual(['m3u', 'xtream']);
    for (const c of calls) {
      expect(c.path).toBe('/services/svc_storybook01/qr.svg');
      expect(c.headers.get('authorization')).toBe('Bearer tok-buyer');
    }

    // The first app takes the Xtream codes: its steps, and the codes to copy.
    expect(p.getByTestId('device-steps').textContent).toContain('Install IPTV Smarters Pro from its store');
    expect(p.getByTestId('device-server').textContent).toBe('http://line.streamcart.local:8000');
    fireEvent.click(within(p.getByTestId('device-password').parentElement!).getByTestId('copy-button'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('865762160918'));
    // VLC takes the playlist link.
    const vlc = [...p.getByTestId<HTMLSelectElement>('device-app').options].findIndex((o) => o.text.startsWith('VLC'));
    fireEvent.change(p.getByTestId('device-app'), { target: { value: String(vlc) } });
    await waitFor(() => expect(p.getByTestId('device-steps').textContent).toContain(en.m3uSteps('VLC media player')[1]));
    expect(p.getByTestId('device-playlist').textContent).toBe(body<{ playlistUrl: string }>('services.get', '200').playlistUrl);
    expect(p.queryByTestId('device-password')).toBeNull();
  });

  it('gives a MAG box the portal and the line’s MAC, an Enigma2 receiver its command to copy', async () => {
    const { panel, writeText } = await success();
    const p = within(panel);
    fireEvent.click(await p.findByTestId('device-tab-mag'));
    expect((await p.findByTestId('device-portal')).textContent).toBe('http://line.streamcart.local:8000/c/');
    expect(p.getByTestId('device-tab-mag').getAttribute('aria-selected')).toBe('true');
    expect(p.getByTestId('device-mac').textContent).toMatch(/^00:1A:79:/);
    expect(p.queryByTestId('device-set-mac')).toBeNull();

    fireEvent.click(p.getByTestId('device-tab-enigma2'));
    const command = (await p.findByTestId('device-command')).textContent;
    expect(command).toBe(
      "wget -O /etc/enigma2/iptv.sh 'http://line.streamcart.local:8000/get.php?username=sc91692420&password=865762160918&type=enigma22_script&output=mpegts' && chmod 755 /etc/enigma2/iptv.sh && /etc/enigma2/iptv.sh",
    );
    fireEvent.click(within(p.getByTestId('device-panel')).getByTestId('copy-button'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(command));
  });

  it('asks for the MAC first when the line has none', async () => {
    const { panel } = await success({}, { macAddress: '' });
    fireEvent.click(await within(panel).findByTestId('device-tab-mag'));
    // On the success page the MAC is set in My services.
    expect((await within(panel).findByTestId('device-set-mac')).textContent).toContain(en.setMacServices);
    expect(within(panel).queryByTestId('device-mac')).toBeNull();
  });

  it('speaks the shown locale', async () => {
    const { panel } = await success({ locale: 'de-de' });
    expect(within(panel).getByRole('heading').textContent).toBe(de.title);
    fireEvent.click(await within(panel).findByTestId('device-tab-enigma2'));
    await within(panel).findByTestId('device-command');
    expect(within(panel).getByTestId('device-steps').textContent).toContain(de.enigma2Steps[2]);
  });

  it('says so when a QR code cannot be had, and asks again', async () => {
    const { api, panel } = await success();
    let refused = true;
    api.on('services.qr', () =>
      refused
        ? apiError(404, 'not_found', 'Service not found.')
        : new Response('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M4 4h7v7h-7z"/></svg>', {
            status: 200,
            headers: { 'Content-Type': 'image/svg+xml' },
          }),
    );
    // The first answers may have come already: hide and show the panel to ask again.
    const toggle = within(panel).getByTestId('device-setup-toggle');
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-expanded')).toBe('false'));
    fireEvent.click(toggle);
    const qr = await within(panel).findByTestId('device-qr-xtream');
    expect((await within(qr).findByRole('alert')).textContent).toContain(en.qrError);
    refused = false;
    fireEvent.click(within(qr).getByRole('button'));
    expect(await within(panel).findByRole('img', { name: en.qrAlt(en.qrXtream) })).toBeTruthy();
  });

  it('is a button in each line of the services view, opened on demand', async () => {
    const api = installApi();
    api.on('services.list', (r) =>
      byDefault(r)
        .json()
        .then((b: { services: Record<string, unknown>[] }) => ({ services: b.services.map((s) => ({ ...s, macAddress: '' })) })),
    );
    signedIn(body<{ token: string }>('session.create', '201.proven').token);
    history.replaceState(null, '', '/shop/?sc_view=services');
    const m = mount();
    await waitFor(() => m.ui());
    const card = (await m.ui().findAllByTestId('service-card'))[0]!;
    const toggle = await within(card).findByTestId('device-setup-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(api.callsTo('services.qr')).toHaveLength(0);
    fireEvent.click(toggle);
    expect(await within(card).findByRole('img', { name: en.qrAlt(en.qrXtream) })).toBeTruthy();
    fireEvent.click(within(card).getByTestId('device-tab-mag'));
    // A proven session sets the MAC right below.
    expect((await within(card).findByTestId('device-set-mac')).textContent).toContain(en.setMacHere);
  });

  it('has a complete table in every locale', async () => {
    for (const locale of LOCALES) {
      const t = await loadDevicesTexts(locale);
      expect(Object.keys(t).sort()).toEqual(Object.keys(en).sort());
      expect(t.xtreamSteps('X').join(' ')).toContain('X');
      expect(t.m3uSteps('X').join(' ')).toContain('X');
    }
  });
});
