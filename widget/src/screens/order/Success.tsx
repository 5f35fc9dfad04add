import { useEffect, useState } from 'react';
import { isApiError } from '../../api/client';
import { type Order, type Service, downloadPlaylist, getOrder, getService } from '../../api/orders';
import { catalogKey } from '../../core/catalog';
import { clearedForSuccess } from '../../core/persisted';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useErrorText, useTexts } from '../../ui/texts';
import { Credential } from '../../ui/Credential';
import { useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { CardIcon, PlatformIcon } from './appIcons';
import { Centered, HomeLink, ManageLink } from '../../ui/Views';
import { viewUrl } from '../../core/returns';
import { orderIdFrom } from './Waiting';
import { Receipt } from './Receipt';
import { DeviceSetup } from '../devices/DeviceSetup';
import { useSheet } from '../../element/styles';
import componentsCss from '../../ui/components.css?inline';
import orderCss from './order.css?inline';

interface Bought {
  order: Order | null;
  services: Service[];
}

/**
 * Whether the seller's dashboard leads out of the storefront (as the server decides for the
 * header's Login): an absolute http(s) URL, or a path outside /checkout/. The default, /checkout/
 * itself, is the shop: "Go to your dashboard" then opens My services instead of reloading it.
 */
export function offShop(dashboard: string): boolean {
  const d = dashboard.trim();
  if (/^https?:\/\//i.test(d)) return true;
  if (!d.startsWith('/') || d.startsWith('//')) return false;
  const path = d.split(/[?#]/)[0]!;
  return !(path + '/').startsWith('/checkout/');
}

function isUrl(s: string): boolean {
  return /^(https?:)?\/\//.test(s) || s.startsWith('/');
}

/** Setup details, credentials with copy buttons, the M3U download, apps and help cards. */
export function Success() {
  useSheet(componentsCss);
  useSheet(orderCss);
  const c = useController();
  const { t, locale } = useTexts('order');
  const errorText = useErrorText();
  const route = useCheckout((s) => s.route);
  const [initial] = useState(() => c.getState().persisted.order);
  // The gateway this browser paid with: the order answer does not name it (the receipt shows it).
  const [gateway] = useState(() => c.getState().persisted.payment.gateway);
  const orderId = orderIdFrom(route.query, initial.orderid);

  const bought = useResource(`services:${orderId}:${initial.serviceid.join(',')}`, async (): Promise<Bought> => {
    const order = orderId ? await getOrder(c.client, orderId) : null;
    const list = await Promise.all((order ? order.serviceIds : initial.serviceid).map((id) => getService(c.client, id)));
    return { order, services: list };
  });
  const services = bought.status === 'ok' ? { ...bought, data: bought.data.services } : bought;
  const order = bought.status === 'ok' ? bought.data.order : null;
  const storefront = useResource(catalogKey.storefront(locale), () =>
    c.cached(catalogKey.storefront(locale), () => c.client.storefront(locale)),
  );
  const shown = services.status === 'ok' && services.data.length > 0;
  const heading = useStepFocus<HTMLHeadingElement>(shown);

  // Spec §4: success clears the order and invoice ids; the client product is remembered.
  useEffect(() => {
    if (services.status !== 'ok' || !services.data.length) return;
    const s = services.data[0]!;
    c.update((p) => ({
      ...clearedForSuccess(p),
      order: { ...clearedForSuccess(p).order, serviceid: services.data.map((x) => x.serviceId) },
      productDetails: { serviceid: s.serviceId, name: s.name, status: s.status, username: s.username, serverhostname: s.serverHostname },
    }));
  }, [services.status, services.data, c]);

  if (services.status === 'loading') {
    return <Centered icon="spinner" tone="busy" title={t.statusDetails} />;
  }
  if (services.status === 'error') {
    return (
      <Centered icon="alert" tone="error" title={t.errorTitle}>
        <p className="sc-lead" role="alert">
          {isApiError(services.error) ? errorText(services.error) : t.errorText}
        </p>
        <div className="sc-actions">
          <button type="button" className="sc-btn sc-btn-primary" onClick={services.reload}>
            {t.tryAgain}
          </button>
          <HomeLink className="sc-btn sc-btn-ghost">{t.backHome}</HomeLink>
        </div>
      </Centered>
    );
  }

  if (!services.data.length) {
    return (
      <Centered icon="help" title={t.errors.not_found}>
        <HomeLink>{t.backHome}</HomeLink>
      </Centered>
    );
  }

  // Refunded in full (the lines taken back): no welcome and no login details, what was paid and
  // given back, and the way to the buyer's services.
  if (order?.status === 'refunded') {
    return (
      <div className="sc-page sc-success" data-testid="order-refunded">
        <header className="sc-success-head">
          <div className="sc-hero-icon">
            <Icon name="help" />
          </div>
          <h2 className="sc-title" ref={heading} tabIndex={-1}>
            {t.statusRefunded}
          </h2>
          <p className="sc-lead">{t.refundedHint}</p>
        </header>
        <Receipt order={order} gateway={gateway} />
        <ManageLink lead={false} />
      </div>
    );
  }

  const sf = storefront.data;
  return (
    <div className="sc-page sc-success">
      <header className="sc-success-head">
        <div className="sc-hero-icon is-ok">
          <Icon name="check" />
        </div>
        <h2 className="sc-title" ref={heading} tabIndex={-1}>
          {t.successTitle}
        </h2>
        <p className="sc-lead">{t.successLead}</p>
      </header>

      {services.data.map((s) => (
        <ServiceCard key={s.serviceId} service={s} />
      ))}
      {services.data.map((s) => s.username && s.password && <DeviceSetup key={s.serviceId} line={s} open />)}

      {order && <Receipt order={order} gateway={gateway} />}

      <section className="sc-card" aria-labelledby="sc-setup-title">
        <h3 className="sc-card-title" id="sc-setup-title">
          {t.setupTitle}
        </h3>
        <ol className="sc-steps">
          {t.setupSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>

      {sf && sf.apps.length > 0 && (
        <section className="sc-card" aria-labelledby="sc-apps-title">
          <h3 className="sc-card-title" id="sc-apps-title">
            {t.apps}
          </h3>
          <div className="sc-apps">
            {sf.apps.map((app) => (
              <a
                key={`${app.name}-${app.platform}`}
                className="sc-app"
                href={app.url}
                target="_blank"
                rel="noopener"
                data-testid="app-button"
              >
                {isUrl(app.icon) ? (
                  <img src={app.icon} alt="" width={28} height={28} loading="lazy" />
                ) : (
                  <PlatformIcon platform={app.platform || app.icon} />
                )}
                <span>
                  <strong>{app.name}</strong>
                  <small>{app.platform}</small>
                </span>
              </a>
            ))}
          </div>
        </section>
      )}

      {sf && sf.cards.length > 0 && (
        <section aria-labelledby="sc-resources-title">
          <h3 className="sc-subtitle" id="sc-resources-title">
            {t.resources}
          </h3>
          <div className="sc-cards">
            {sf.cards.map((card) => {
              const body = (
                <>
                  {isUrl(card.icon) ? <img src={card.icon} alt="" width={32} height={32} loading="lazy" /> : <CardIcon icon={card.icon} />}
                  <strong>{card.title}</strong>
                  <span>{card.text}</span>
                </>
              );
              // A card without a link is information only, not a link to this page.
              return card.url ? (
                <a
                  key={card.title}
                  className="sc-card sc-util is-link"
                  href={card.url}
                  target={card.url.startsWith('mailto:') ? undefined : '_blank'}
                  rel="noopener"
                  data-testid="utility-card"
                >
                  {body}
                </a>
              ) : (
                <div key={card.title} className="sc-card sc-util" data-testid="utility-card">
                  {body}
                </div>
              );
            })}
          </div>
        </section>
      )}

      <ManageLink lead={false} />
      {sf?.dashboardUrl && (
        <p className="sc-center-row">
          {offShop(sf.dashboardUrl) ? (
            <a className="sc-btn sc-btn-primary" href={sf.dashboardUrl} target="_blank" rel="noopener" data-testid="dashboard-link">
              {t.dashboard}
            </a>
          ) : (
            <a
              className="sc-btn sc-btn-primary"
              href={viewUrl(c.place(), 'services')}
              data-testid="dashboard-link"
              onClick={(e) => {
                if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                e.preventDefault();
                c.navigate('', { view: 'services' });
              }}
            >
              {t.dashboard}
            </a>
          )}
        </p>
      )}
    </div>
  );
}

function ServiceCard({ service: s }: { service: Service }) {
  const c = useController();
  const { t, date } = useTexts('order');
  const errorText = useErrorText();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const ready = !!s.username && !!s.password;
  const status = (t.statuses as Record<string, string>)[s.status] ?? s.status;
  const cycle = (t.cycles as Record<string, string>)[s.billingCycle] ?? s.billingCycle;

  async function download() {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadPlaylist(c.client, s, c.host.shadowRoot);
    } catch (e) {
      setDownloadError(e);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section
      className="sc-card sc-credentials"
      part="credentials"
      data-testid="success-credentials"
      aria-labelledby={`sc-cred-${s.serviceId}`}
    >
      <div className="sc-cred-head">
        <h3 className="sc-card-title" id={`sc-cred-${s.serviceId}`}>
          {t.credentials}
        </h3>
        <span className={`sc-status sc-status-${s.status.toLowerCase()}`}>{status}</span>
      </div>
      <dl className="sc-facts">
        <div>
          <dt>{t.plan}</dt>
          <dd>{s.name}</dd>
        </div>
        {s.maxConnections > 0 && (
          <div>
            <dt>{t.maxConnections}</dt>
            <dd>{s.maxConnections}</dd>
          </div>
        )}
        {cycle && (
          <div>
            <dt>{t.billing}</dt>
            <dd>{cycle}</dd>
          </div>
        )}
        {s.nextDueDate && (
          <div>
            <dt>{t.nextDueDate}</dt>
            <dd>{date(s.nextDueDate)}</dd>
          </div>
        )}
      </dl>
      {ready ? (
        <div className="sc-creds">
          {s.serverHostname && <Credential label={t.server} value={s.serverHostname} testId="credential-server" />}
          <Credential label={t.username} value={s.username} testId="credential-username" />
          <Credential label={t.password} value={s.password} testId="credential-password" />
        </div>
      ) : (
        <p className="sc-muted">{t.credentialsPending}</p>
      )}
      {ready && (
        <button
          type="button"
          className="sc-btn sc-btn-secondary sc-download"
          data-testid="m3u-download"
          onClick={() => !downloading && void download()}
          aria-disabled={downloading || undefined}
          aria-busy={downloading || undefined}
        >
          <Icon name={downloading ? 'spinner' : 'download'} className={downloading ? 'sc-spin' : undefined} />
          {downloading ? t.downloading : t.downloadM3u}
        </button>
      )}
      {downloadError !== null && (
        <p className="sc-alert" role="alert">
          <Icon name="alert" />
          {errorText(downloadError)}
        </p>
      )}
    </section>
  );
}
