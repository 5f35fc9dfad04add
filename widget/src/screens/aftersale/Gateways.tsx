// The payment method of an after-sale purchase (upsell, reseller plan, renewal): the gateway list
// with the chosen one, and the choice as radio buttons.
import { useEffect, useState } from 'react';
import { catalogKey } from '../../core/catalog';
import { useController } from '../../ui/context';
import { useAfterSaleTexts } from '../../ui/texts';

/** The gateway list and the chosen one (the default until the buyer picks). */
export function useGateways() {
  const c = useController();
  const { locale } = useAfterSaleTexts();
  const [list, setList] = useState<{ module: string; displayName: string }[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [fallback, setFallback] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    c.cached(catalogKey.gateways(locale), () => c.client.gateways(locale)).then(
      (g) => {
        if (!live) return;
        setList(g.gateways);
        setFallback(g.default || g.gateways[0]?.module || null);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [c, locale]);
  const gateway = chosen && list.some((g) => g.module === chosen) ? chosen : fallback;
  return { list, gateway, choose: setChosen };
}

export function GatewayChoice({
  list,
  gateway,
  choose,
  title,
}: {
  list: { module: string; displayName: string }[];
  gateway: string | null;
  choose: (m: string) => void;
  title: string;
}) {
  if (!list.length) return null;
  return (
    <section className="sc-card" aria-labelledby="sc-as-gateway-title">
      <h3 className="sc-card-title" id="sc-as-gateway-title">
        {title}
      </h3>
      <div className="sc-gateways" role="radiogroup" aria-labelledby="sc-as-gateway-title">
        {list.map((g) => (
          <label
            key={g.module}
            className={`sc-gateway${g.module === gateway ? ' is-selected' : ''}`}
            data-testid="gateway-option"
            data-module={g.module}
          >
            <input type="radio" name="sc-as-gateway" value={g.module} checked={g.module === gateway} onChange={() => choose(g.module)} />
            <span>{g.displayName}</span>
          </label>
        ))}
      </div>
    </section>
  );
}
