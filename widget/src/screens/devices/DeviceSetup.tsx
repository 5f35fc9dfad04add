// "Set up your device": per device family what it needs, for one line — the phone and TV apps
// (QR codes of the Xtream codes and of the playlist link, made by the server, and each app's
// steps), MAG/Stalker boxes (portal URL and the line's MAC) and Enigma2 receivers (the install
// command). Shared by the order and after-sale chunks (never the first paint); its texts are their
// own chunks (locales/<code>-devices.js) and its data is fetched when it opens.
import { useEffect, useState } from 'react';
import { Credential } from '../../ui/Credential';
import { CopyButton } from '../../ui/CopyButton';
import { useController, useI18n, useResource } from '../../ui/context';
import { Icon } from '../../ui/icons';
import { useSheet } from '../../element/styles';
import devicesCss from './devices.css?inline';
import { fill, fillCommand, getSetup, qrImage, type QrKind, type QrPicture, type SetupApp, type SetupDevice } from './api';
import { loadDevicesTexts, type DevicesTexts } from './texts';

/** The line as the panel needs it (a Service of api/orders). */
export interface Line {
  serviceId: string;
  serverHostname: string;
  username: string;
  password: string;
  macAddress: string;
  playlistUrl: string;
}

export interface DeviceSetupProps {
  line: Line;
  /** Open at first (the success page); the services view shows a button first. */
  open?: boolean;
  /** The MAC can be set right here (the services view of a proven session). */
  macHere?: boolean;
  /** Inside a line's card (the services view): no card of its own. */
  embedded?: boolean;
}

export function DeviceSetup({ line, open: initiallyOpen = false, macHere = false, embedded = false }: DeviceSetupProps) {
  useSheet(devicesCss);
  const c = useController();
  const { locale } = useI18n();
  const [open, setOpen] = useState(initiallyOpen);
  const texts = useResource(`devices-texts:${locale}`, () => loadDevicesTexts(locale));
  const key = `devices-setup:${locale}`;
  const setup = useResource(open ? key : null, () => c.cached(key, () => getSetup(c.client, locale)));
  const id = `sc-dev-${line.serviceId}`;
  const d = texts.data;
  if (!d) return null; // a few hundred bytes, fetched with the chunk: nothing to show before them

  return (
    <section
      className={embedded ? 'sc-devices is-embedded' : 'sc-card sc-devices'}
      data-testid="device-setup"
      aria-labelledby={`${id}-title`}
    >
      <div className="sc-devices-head">
        <h3 className="sc-card-title" id={`${id}-title`}>
          {d.title}
        </h3>
        <button
          type="button"
          className="sc-btn sc-btn-ghost sc-btn-small"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          data-testid="device-setup-toggle"
          onClick={() => setOpen(!open)}
        >
          {open ? d.hide : d.show}
        </button>
      </div>
      {open && (
        <div id={`${id}-body`}>
          <p className="sc-muted">{d.lead}</p>
          {setup.status === 'ok' ? (
            <Families d={d} line={line} apps={setup.data.apps} devices={setup.data.devices} macHere={macHere} />
          ) : setup.status === 'error' ? (
            <p className="sc-alert" role="alert">
              <Icon name="alert" />
              {d.loadError}{' '}
              <button type="button" className="sc-btn sc-btn-ghost sc-btn-small" onClick={setup.reload}>
                {d.retry}
              </button>
            </p>
          ) : (
            <p className="sc-muted" role="status">
              {d.loading}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

type Family = { key: string; name: string; device?: SetupDevice };

function Families({
  d,
  line,
  apps,
  devices,
  macHere,
}: {
  d: DevicesTexts;
  line: Line;
  apps: SetupApp[];
  devices: SetupDevice[];
  macHere: boolean;
}) {
  const id = `sc-dev-${line.serviceId}`;
  const families: Family[] = [
    { key: 'apps', name: d.tabApps },
    ...devices
      .filter((x) => (x.family === 'mag' && x.portal) || (x.family === 'enigma2' && x.command))
      .map((x, i) => ({ key: `${x.family}-${i}`, name: x.name, device: x })),
  ];
  const [shown, setShown] = useState('apps');
  const current = families.find((f) => f.key === shown) ?? families[0]!;
  return (
    <>
      <div className="sc-dev-tabs" role="tablist" aria-label={d.title}>
        {families.map((f) => (
          <button
            key={f.key}
            type="button"
            role="tab"
            id={`${id}-tab-${f.key}`}
            aria-selected={f.key === current.key}
            aria-controls={`${id}-panel`}
            data-testid={`device-tab-${f.device?.family ?? 'apps'}`}
            onClick={() => setShown(f.key)}
          >
            {f.name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${current.key}`} data-testid="device-panel">
        {!current.device ? (
          <Apps d={d} line={line} apps={apps} />
        ) : current.device.family === 'mag' ? (
          <Mag d={d} line={line} device={current.device} macHere={macHere} />
        ) : (
          <Enigma2 d={d} line={line} device={current.device} />
        )}
      </div>
    </>
  );
}

function Apps({ d, line, apps }: { d: DevicesTexts; line: Line; apps: SetupApp[] }) {
  const id = `sc-dev-${line.serviceId}`;
  const [chosen, setChosen] = useState(0);
  const app = apps[chosen];
  const server = `http://${line.serverHostname}`;
  return (
    <>
      <div className="sc-qr-row">
        <Qr d={d} line={line} kind="xtream" title={d.qrXtream} hint={d.qrXtreamHint} />
        {line.playlistUrl && <Qr d={d} line={line} kind="m3u" title={d.qrM3u} hint={d.qrM3uHint} />}
      </div>
      {app && (
        <div className="sc-dev-app">
          {apps.length > 1 && (
            <div className="sc-field">
              <label className="sc-label" htmlFor={`${id}-app`}>
                {d.yourApp}
              </label>
              <select
                id={`${id}-app`}
                className="sc-input sc-select"
                value={chosen}
                data-testid="device-app"
                onChange={(e) => setChosen(Number(e.target.value))}
              >
                {apps.map((a, i) => (
                  <option key={`${a.name}-${a.platform}`} value={i}>
                    {a.platform ? `${a.name} (${a.platform})` : a.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <ol className="sc-dev-steps" data-testid="device-steps">
            {(app.setup === 'm3u' ? d.m3uSteps : d.xtreamSteps)(app.name).map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      )}
      <div className="sc-creds">
        {(!app || app.setup === 'xtream') && (
          <>
            <Credential label={d.serverUrl} value={server} testId="device-server" />
            <Credential label={d.username} value={line.username} testId="device-username" />
            <Credential label={d.password} value={line.password} testId="device-password" />
          </>
        )}
        {(!app || app.setup === 'm3u') && line.playlistUrl && (
          <Credential label={d.playlistUrl} value={line.playlistUrl} testId="device-playlist" />
        )}
      </div>
    </>
  );
}

/** One QR code, fetched with the session and drawn as inline SVG (no blob: image for the host's CSP). */
function Qr({ d, line, kind, title, hint }: { d: DevicesTexts; line: Line; kind: QrKind; title: string; hint: string }) {
  const c = useController();
  const [picture, setPicture] = useState<QrPicture | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(false);
    qrImage(c.client, line.serviceId, kind).then(
      (p) => live && setPicture(p),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [c, line.serviceId, line.username, line.password, kind, attempt]);
  return (
    <figure className="sc-qr" data-testid={`device-qr-${kind}`}>
      {picture ? (
        <svg
          className="sc-qr-img"
          role="img"
          aria-label={d.qrAlt(title)}
          viewBox={picture.viewBox}
          width={200}
          height={200}
          shapeRendering="crispEdges"
        >
          <rect width="100%" height="100%" fill="#fff" />
          <path fill="#000" d={picture.d} />
        </svg>
      ) : failed ? (
        <p className="sc-qr-box sc-muted" role="alert">
          {d.qrError}
          <button type="button" className="sc-btn sc-btn-ghost sc-btn-small" onClick={() => setAttempt(attempt + 1)}>
            {d.retry}
          </button>
        </p>
      ) : (
        <span className="sc-qr-box" aria-hidden="true" />
      )}
      <figcaption>
        <strong>{title}</strong>
        <span>{hint}</span>
      </figcaption>
    </figure>
  );
}

function Mag({ d, line, device, macHere }: { d: DevicesTexts; line: Line; device: SetupDevice; macHere: boolean }) {
  return (
    <>
      <ol className="sc-dev-steps" data-testid="device-steps">
        {d.magSteps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <div className="sc-creds">
        <Credential label={d.portalUrl} value={fill(device.portal, line)} testId="device-portal" />
      </div>
      {line.macAddress ? (
        <div className="sc-creds sc-dev-mac">
          <p className="sc-muted">{d.macOnLine}</p>
          <Credential label={d.macAddress} value={line.macAddress} testId="device-mac" />
        </div>
      ) : (
        <div className="sc-note sc-dev-mac" data-testid="device-set-mac">
          <p>{d.noMac}</p>
          <p>{macHere ? d.setMacHere : d.setMacServices}</p>
        </div>
      )}
    </>
  );
}

function Enigma2({ d, line, device }: { d: DevicesTexts; line: Line; device: SetupDevice }) {
  const command = fillCommand(device.command, line);
  return (
    <>
      <ol className="sc-dev-steps" data-testid="device-steps">
        {d.enigma2Steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <div className="sc-command">
        <span className="sc-cred-label">{d.command}</span>
        <code data-testid="device-command">{command}</code>
        <CopyButton value={command} label={d.command} />
      </div>
    </>
  );
}
