// The poster background: two rows of invented film and series posters drawn
// as SVG (no image files, no real titles). posterSpecs is pure; renderPoster
// builds the SVG with DOM calls, which a strict CSP allows.
import { POSTERS_PER_ROW } from './policy.js';

const SVG = 'http://www.w3.org/2000/svg';

// Invented titles: none of these names a real film or series.
const TITLES = [
  [
    'Veloria',
    'Quinmarsh',
    'Altheon',
    'Brimvale',
    'Kytheris',
    'Tallowmere',
    'Emberlyn',
    'Orlaith',
    'Zephyrine',
    'Marrowgate',
    'Solvarra',
    'Cadenza IX',
  ],
  [
    'Nimbrel',
    'Harrowick',
    'Lunarine',
    'Corvantis',
    'Ysoldra',
    'Pallisand',
    'Thornquay',
    'Iridane',
    'Oberwyn',
    'Saltreve',
    'Quillon Bay',
    'Glimmerhold',
  ],
];

// [background top, background bottom, accent, title colour]
const PALETTES = [
  ['#1b1f4b', '#5b2a6e', '#f25f5c', '#ffe7c2'],
  ['#0f2027', '#2c5364', '#9be7ff', '#e9fbff'],
  ['#3a1c71', '#d76d77', '#ffaf7b', '#fff1e6'],
  ['#0b3d2e', '#1f8a70', '#bedb39', '#f2ffd6'],
  ['#231942', '#5e548e', '#e0b1cb', '#fbeaff'],
  ['#14213d', '#27407a', '#fca311', '#fff4dc'],
  ['#2b2d42', '#5c2233', '#ef233c', '#edf2f4'],
  ['#03045e', '#0077b6', '#90e0ef', '#e6fbff'],
  ['#3d0c02', '#8a3200', '#f9c784', '#fff3e0'],
  ['#1a1a2e', '#0f3460', '#e94560', '#ffe3e8'],
  ['#112d32', '#254e58', '#88bdbc', '#eafffb'],
  ['#2e1a47', '#6a2c70', '#f08a5d', '#ffeede'],
];

const MOTIFS = ['sun', 'rings', 'skyline', 'waves', 'peaks', 'grid', 'orbit', 'stripes', 'door', 'moon', 'prism', 'dunes'];

/** mulberry32: a small seeded PRNG so the posters look the same on every visit. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** posterSpecs returns the 12 posters of a row (0 or 1): title, palette, motif, year, seed. */
export function posterSpecs(row) {
  const titles = TITLES[row % TITLES.length];
  return Array.from({ length: POSTERS_PER_ROW }, (_, i) => ({
    title: titles[i],
    palette: PALETTES[(i * 5 + row * 7) % PALETTES.length],
    motif: MOTIFS[(i * 7 + row * 5) % MOTIFS.length],
    year: 2016 + ((i * 3 + row * 4) % 10),
    seed: 1000 * (row + 1) + i * 37,
  }));
}

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

function motif(kind, [, , accent, light], rand) {
  const g = el('g');
  const add = (name, attrs) => g.append(el(name, attrs));
  switch (kind) {
    case 'sun':
      add('circle', { cx: 100, cy: 118, r: 46, fill: accent, opacity: 0.9 });
      for (let i = 0; i < 4; i++) add('rect', { x: 0, y: 150 + i * 14, width: 200, height: 6, fill: '#000', opacity: 0.18 + i * 0.06 });
      add('path', { d: 'M0 200 L55 140 L90 175 L130 128 L200 196 L200 300 L0 300Z', fill: '#000', opacity: 0.55 });
      break;
    case 'rings':
      for (let i = 5; i >= 1; i--)
        add('circle', { cx: 100, cy: 120, r: i * 16, fill: 'none', stroke: accent, 'stroke-width': 3, opacity: 0.2 + i * 0.12 });
      add('circle', { cx: 100, cy: 120, r: 8, fill: light });
      break;
    case 'skyline': {
      add('circle', { cx: 150, cy: 70, r: 20, fill: light, opacity: 0.85 });
      let x = -4;
      while (x < 204) {
        const w = 16 + Math.floor(rand() * 18);
        const h = 50 + Math.floor(rand() * 110);
        add('rect', { x, y: 225 - h, width: w, height: h + 80, fill: '#05060f', opacity: 0.82 });
        for (let wy = 232 - h; wy < 215; wy += 12) {
          if (rand() > 0.55) add('rect', { x: x + 4, y: wy, width: 4, height: 5, fill: accent, opacity: 0.8 });
        }
        x += w + 3;
      }
      break;
    }
    case 'waves':
      for (let i = 0; i < 6; i++) {
        const y = 110 + i * 22;
        add('path', { d: `M0 ${y} Q25 ${y - 14} 50 ${y} T100 ${y} T150 ${y} T200 ${y} V300 H0Z`, fill: accent, opacity: 0.12 + i * 0.08 });
      }
      break;
    case 'peaks':
      add('circle', { cx: 64, cy: 80, r: 18, fill: light, opacity: 0.9 });
      add('path', { d: 'M-10 210 L60 110 L110 180 L150 120 L215 210Z', fill: accent, opacity: 0.45 });
      add('path', { d: 'M-10 240 L40 170 L95 230 L150 160 L215 240Z', fill: '#000', opacity: 0.35 });
      add('path', { d: 'M60 110 L72 127 L66 124 L60 132 L54 124 L48 127Z', fill: light, opacity: 0.85 });
      break;
    case 'grid':
      add('circle', { cx: 100, cy: 150, r: 50, fill: accent });
      for (let i = 0; i < 5; i++) add('rect', { x: 40, y: 132 + i * 8, width: 120, height: 2 + i, fill: '#000', opacity: 0.45 });
      add('rect', { x: 0, y: 152, width: 200, height: 148, fill: '#05060f', opacity: 0.85 });
      for (let i = -5; i <= 5; i++)
        add('line', { x1: 100, y1: 152, x2: 100 + i * 45, y2: 300, stroke: accent, 'stroke-width': 1, opacity: 0.6 });
      for (let i = 0; i < 6; i++) {
        const y = 152 + Math.pow(i / 5, 2) * 148;
        add('line', { x1: 0, y1: y, x2: 200, y2: y, stroke: accent, 'stroke-width': 1, opacity: 0.6 });
      }
      break;
    case 'orbit':
      for (let i = 0; i < 40; i++) add('circle', { cx: rand() * 200, cy: rand() * 220, r: rand() * 1.4 + 0.3, fill: light, opacity: 0.8 });
      add('circle', { cx: 100, cy: 120, r: 36, fill: accent });
      add('ellipse', {
        cx: 100,
        cy: 120,
        rx: 66,
        ry: 14,
        fill: 'none',
        stroke: light,
        'stroke-width': 3,
        opacity: 0.8,
        transform: 'rotate(-18 100 120)',
      });
      break;
    case 'stripes':
      for (let i = -4; i < 8; i++)
        add('rect', {
          x: i * 32,
          y: -60,
          width: 14,
          height: 420,
          fill: accent,
          opacity: 0.18 + (i % 3) * 0.1,
          transform: 'rotate(28 100 150)',
        });
      add('circle', { cx: 100, cy: 118, r: 30, fill: 'none', stroke: light, 'stroke-width': 6 });
      break;
    case 'door':
      add('path', { d: 'M82 180 L118 180 L190 300 L10 300Z', fill: accent, opacity: 0.35 });
      add('rect', { x: 82, y: 80, width: 36, height: 100, fill: light, opacity: 0.95 });
      add('rect', { x: 96, y: 150, width: 8, height: 30, fill: '#000', opacity: 0.8 });
      add('circle', { cx: 100, cy: 146, r: 5, fill: '#000', opacity: 0.8 });
      break;
    case 'moon':
      for (let i = 0; i < 30; i++) add('circle', { cx: rand() * 200, cy: rand() * 200, r: rand() * 1.2 + 0.3, fill: light, opacity: 0.7 });
      add('circle', { cx: 112, cy: 100, r: 42, fill: light });
      add('circle', { cx: 132, cy: 88, r: 38, fill: '#000', opacity: 0.55 });
      add('path', { d: 'M0 230 C40 200 70 215 100 205 C130 195 170 212 200 200 V300 H0Z', fill: '#05060f', opacity: 0.8 });
      break;
    case 'prism':
      add('path', { d: 'M100 60 L150 160 L50 160Z', fill: 'none', stroke: light, 'stroke-width': 4 });
      add('path', { d: 'M0 130 L78 115', stroke: light, 'stroke-width': 3 });
      [accent, light, '#7cc6fe', '#b388eb'].forEach((c, i) =>
        add('path', { d: `M124 118 L200 ${96 + i * 14} L200 ${104 + i * 14}Z`, fill: c, opacity: 0.85 }),
      );
      break;
    default: // dunes
      add('circle', { cx: 140, cy: 84, r: 24, fill: accent, opacity: 0.95 });
      add('path', { d: 'M0 190 C50 160 90 200 140 175 C170 160 190 170 200 175 V300 H0Z', fill: accent, opacity: 0.35 });
      add('path', { d: 'M0 225 C40 205 80 240 130 215 C160 200 185 215 200 220 V300 H0Z', fill: '#000', opacity: 0.4 });
  }
  return g;
}

/** renderPoster builds one poster; idSuffix keeps gradient ids unique in the page. */
export function renderPoster(spec, idSuffix) {
  const [top, bottom, , light] = spec.palette;
  const rand = rng(spec.seed);
  const gid = `sc-poster-${spec.seed}-${idSuffix}`;
  const svg = el('svg', { viewBox: '0 0 200 300', class: 'poster', focusable: 'false', 'aria-hidden': 'true' }, [
    el('defs', {}, [
      el('linearGradient', { id: gid, x1: 0, y1: 0, x2: 0.3, y2: 1 }, [
        el('stop', { offset: 0, 'stop-color': top }),
        el('stop', { offset: 1, 'stop-color': bottom }),
      ]),
      el('linearGradient', { id: gid + '-fade', x1: 0, y1: 0, x2: 0, y2: 1 }, [
        el('stop', { offset: 0.55, 'stop-color': '#000', 'stop-opacity': 0 }),
        el('stop', { offset: 1, 'stop-color': '#000', 'stop-opacity': 0.85 }),
      ]),
    ]),
    el('rect', { width: 200, height: 300, fill: `url(#${gid})` }),
    motif(spec.motif, spec.palette, rand),
    el('rect', { width: 200, height: 300, fill: `url(#${gid}-fade)` }),
  ]);
  const size = spec.title.length > 9 ? 17 : 21;
  const title = el('text', {
    x: 100,
    y: 258,
    'text-anchor': 'middle',
    fill: light,
    'font-size': size,
    'font-weight': 700,
    'letter-spacing': 2.2,
    'font-family': spec.seed % 2 ? 'Georgia, serif' : 'system-ui, sans-serif',
  });
  title.textContent = spec.title.toUpperCase();
  const year = el('text', {
    x: 100,
    y: 280,
    'text-anchor': 'middle',
    fill: light,
    opacity: 0.7,
    'font-size': 10,
    'letter-spacing': 3,
    'font-family': 'system-ui, sans-serif',
  });
  year.textContent = String(spec.year);
  svg.append(title, el('rect', { x: 84, y: 266, width: 32, height: 1.5, fill: light, opacity: 0.6 }), year);
  return svg;
}

/**
 * renderRows fills each .poster-track with its row's 12 posters followed by
 * a copy, so moving the track by half its width loops without a seam.
 */
export function renderRows(root) {
  root.querySelectorAll('.poster-row').forEach((row, r) => {
    const track = row.querySelector('.poster-track');
    if (!track || track.childElementCount > 0) return;
    const specs = posterSpecs(Number(row.dataset.row ?? r));
    for (const copy of ['a', 'b']) {
      for (const spec of specs) {
        const poster = renderPoster(spec, copy);
        if (copy === 'b') poster.classList.add('poster--loop');
        track.append(poster);
      }
    }
  });
}
