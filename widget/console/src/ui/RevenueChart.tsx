// The dashboard's revenue chart: one bar per UTC day of the revenue net of refunds, drawn by uPlot
// (a kept chart library, ~50 kB, loaded on its own when the chart first shows) on a canvas with
// both axes (days; amounts in the chosen currency, the console's money format) and the hovered
// day's amounts under it. uPlot sets styles through the CSSOM only and its style sheet is bundled
// with the console's (no inline <style>), so the console's CSP (style-src 'self') holds. The same
// days are a table for the keyboard and screen readers ("Show as a table").
import { useEffect, useRef, useState } from 'react';
import type uPlotType from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDay, formatMoney, formatNumber, formatShortDay } from '../format';
import { t } from '../messages';
import type { Day, Money } from '../schemas';
import { Table } from './index';

const HEIGHT = 240;
const DAY = 86_400;

const inCurrency = (list: Money[], currency: string): Money => list.find((m) => m.currency === currency) ?? { amount: 0, currency };

/** dayTitle is a day's amounts in words: the hover readout and the table's meaning in one line. */
function dayTitle(d: Day, currency: string): string {
  return t.chartBarTitle(
    formatDay(d.date),
    formatMoney(inCurrency(d.netRevenue, currency)),
    formatMoney(inCurrency(d.paidRevenue, currency)),
    formatMoney(inCurrency(d.refunded, currency)),
    t.ordersCount(d.orders),
  );
}

export function RevenueChart({ series, currency }: { series: Day[]; currency: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const total = series.reduce((a, d) => a + inCurrency(d.netRevenue, currency).amount, 0);

  useEffect(() => {
    const el = box.current;
    // No canvas to draw on (jsdom in the unit tests): the table says it all.
    if (!el || typeof matchMedia !== 'function' || series.length === 0) return;
    let live = true;
    let plot: uPlotType | undefined;
    let resize: ResizeObserver | undefined;
    void import('uplot').then(({ default: uPlot }) => {
      if (!live) return;
      const css = getComputedStyle(el);
      const accent = css.getPropertyValue('--accent').trim() || '#2f4a9e';
      const muted = css.getPropertyValue('--muted').trim() || '#4f5965';
      const grid = css.getPropertyValue('--line').trim() || '#d3d8de';
      const money = (v: number) => formatMoney({ amount: Math.round(v), currency });
      const xs = series.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
      const ys = series.map((d) => inCurrency(d.netRevenue, currency).amount);
      const font = `11px ${css.fontFamily}`;
      plot = new uPlot(
        {
          width: el.clientWidth,
          height: HEIGHT,
          tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          legend: { show: false },
          cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
          scales: {
            x: { time: true, range: (_u, min, max) => [min - DAY / 2, max + DAY / 2] },
            y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 100] },
          },
          axes: [
            {
              stroke: muted,
              font,
              grid: { show: false },
              ticks: { stroke: grid },
              // Whole days only, labelled in the console's language ("Nov 23", "23. Nov.").
              incrs: [1, 2, 7, 14, 28].map((n) => n * DAY),
              values: (_u, splits) => splits.map(formatShortDay),
            },
            {
              stroke: muted,
              font,
              grid: { stroke: grid, width: 1 },
              ticks: { show: false },
              values: (_u, splits) => splits.map(money),
              size: (_u, values) => 14 + Math.max(4, ...(values ?? []).map((v) => String(v).length)) * 7,
            },
          ],
          series: [
            {},
            {
              label: t.revenueHeading,
              stroke: accent,
              fill: accent,
              width: 0,
              points: { show: false },
              paths: uPlot.paths.bars!({ size: [0.7, 48], gap: 1 }),
            },
          ],
          hooks: { setCursor: [(u) => setHovered(u.cursor.idx ?? null)] },
        },
        [xs, ys],
        el,
      );
      resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height: HEIGHT }));
      resize.observe(el);
    });
    return () => {
      live = false;
      resize?.disconnect();
      plot?.destroy();
      setHovered(null);
    };
  }, [series, currency]);

  const day = hovered !== null ? series[hovered] : undefined;
  return (
    <figure className="chart">
      <div
        ref={box}
        className="chart-plot"
        role="img"
        aria-label={t.chartLabel(series.length, formatMoney({ amount: total, currency }))}
        data-testid="revenue-chart"
      />
      <p className="chart-readout" data-testid="chart-readout">
        {day ? dayTitle(day, currency) : t.chartHoverHint}
      </p>
      <figcaption>{t.chartCaption(currency)}</figcaption>
      <details className="chart-table">
        <summary>{t.chartShowTable}</summary>
        <Table
          caption={t.chartTableCaption(currency)}
          hideCaption
          rows={series}
          rowKey={(d) => d.date}
          columns={[
            { header: t.colDay, cell: (d) => <span className="nowrap">{formatDay(d.date)}</span> },
            { header: t.colNet, cell: (d) => formatMoney(inCurrency(d.netRevenue, currency)), numeric: true },
            { header: t.colPaid, cell: (d) => formatMoney(inCurrency(d.paidRevenue, currency)), numeric: true },
            { header: t.colRefunded, cell: (d) => formatMoney(inCurrency(d.refunded, currency)), numeric: true },
            { header: t.colOrders, cell: (d) => formatNumber(d.orders), numeric: true },
          ]}
        />
      </details>
    </figure>
  );
}
