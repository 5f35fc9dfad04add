// A React 19 shop page hosting the checkout from the @streamcart/widget package: attributes as JSX
// props, the element's methods through a ref, its events through typed `onstreamcart:*` props.
import { useRef, useState, type FormEvent } from 'react';
import { LOCALES, type LocaleCode, type StreamcartCheckoutElement, type StreamcartEventMap } from '@streamcart/widget';
import { config } from './config';
import { useLog, type Entry } from './log';

const CURRENCIES = ['EUR', 'USD', 'GBP'];

type Session = StreamcartEventMap['streamcart:session-changed'];

export function App() {
  const checkout = useRef<StreamcartCheckoutElement>(null);
  const log = useLog();
  const [session, setSession] = useState<Session | null>(null);
  const [locale, setLocale] = useState<LocaleCode | ''>('');
  const [currency, setCurrency] = useState('EUR');
  const [pid, setPid] = useState('2');

  const open = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(pid);
    log.call('open', [n]);
    checkout.current?.open(n);
  };
  const signOut = () => {
    log.call('signOut', []);
    // Never rejects: an unreachable API still signs out locally. streamcart:session-changed follows.
    void checkout.current?.signOut();
  };

  return (
    <>
      <header className="masthead">
        <h1>Lumen TV</h1>
        <p>A React 19 app embedding the Streamcart checkout from its npm package.</p>
      </header>
      <div className="layout">
        <main>
          <streamcart-checkout
            ref={checkout}
            api={config.api}
            store={config.store}
            onstreamcart:ready={(e) => {
              log.event(e);
              setSession({ signedIn: e.detail.signedIn, ...(e.detail.email ? { email: e.detail.email } : {}) });
              setLocale(e.detail.locale);
              setCurrency(e.detail.currency);
            }}
            onstreamcart:plan-selected={log.event}
            onstreamcart:order-created={log.event}
            onstreamcart:payment-started={log.event}
            onstreamcart:order-paid={log.event}
            onstreamcart:service-ready={log.event}
            onstreamcart:session-changed={(e) => {
              log.event(e);
              setSession(e.detail);
            }}
            onstreamcart:locale-changed={(e) => {
              log.event(e);
              setLocale(e.detail.locale);
            }}
            onstreamcart:currency-changed={(e) => {
              log.event(e);
              setCurrency(e.detail.currency);
            }}
            onstreamcart:error={log.event}
          />
        </main>
        <aside className="panel" aria-label="Host controls">
          <h2>Controls</h2>
          <p data-testid="session">
            {session === null ? 'Loading…' : session.signedIn ? `Signed in${session.email ? ` as ${session.email}` : ''}` : 'Not signed in'}
          </p>
          <form className="row" onSubmit={open}>
            <label>
              Plan pid <input data-testid="pid-input" type="number" min={1} value={pid} onChange={(e) => setPid(e.target.value)} />
            </label>
            <button data-testid="open-button" type="submit">
              open(pid)
            </button>
          </form>
          <label className="row">
            Language{' '}
            <select
              data-testid="locale-select"
              value={locale}
              onChange={(e) => {
                log.call('setLocale', [e.target.value]);
                checkout.current?.setLocale(e.target.value);
              }}
            >
              {locale === '' && <option value="">…</option>}
              {LOCALES.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </label>
          <label className="row">
            Currency{' '}
            <select
              data-testid="currency-select"
              value={currency}
              onChange={(e) => {
                log.call('setCurrency', [e.target.value]);
                checkout.current?.setCurrency(e.target.value);
              }}
            >
              {CURRENCIES.map((code) => (
                <option key={code}>{code}</option>
              ))}
            </select>
          </label>
          <div className="row">
            <button data-testid="signout-button" type="button" onClick={signOut}>
              signOut()
            </button>
            <button data-testid="clear-log" type="button" onClick={log.clear}>
              Clear log
            </button>
          </div>
          <h2>Events</h2>
          <ol data-testid="event-log" className="log">
            {log.entries.map((entry) => (
              <LogLine key={entry.seq} entry={entry} />
            ))}
          </ol>
        </aside>
      </div>
    </>
  );
}

function LogLine({ entry }: { entry: Entry }) {
  return (
    <li data-kind={entry.kind} data-type={entry.type}>
      <time dateTime={entry.at}>{entry.at.slice(11, 19)}</time>{' '}
      {entry.kind === 'call' ? (
        <code>{`el.${entry.type}(${entry.args.map((a) => JSON.stringify(a)).join(', ')})`}</code>
      ) : (
        <>
          <code>{entry.type}</code>
          <pre>{JSON.stringify(entry.detail)}</pre>
        </>
      )}
    </li>
  );
}
