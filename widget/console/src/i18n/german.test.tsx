/// <reference types="vite/client" />
// "In de-de no English left" (issue 26): every state of every screen's story, rendered in German
// against the stories' own fake answers, shows no text of the English table that German words
// differently — neither in the page's text nor in its labels (aria-label, title, placeholder).
// A text written into a screen instead of the tables, or a key a screen reads from the wrong place,
// shows up here.
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { switchLocale, tableOf } from '../messages';
import { navigate } from '../router';
import { FakeApi } from '../test/fakeApi';
import type { ConsoleStoryProps } from '../test/story';

type Tree = { [k: string]: unknown };
type StoryModule = { default: { args: ConsoleStoryProps } } & Record<string, { args?: Partial<ConsoleStoryProps> }>;

const modules = import.meta.glob<StoryModule>('../screens/*.stories.tsx', { eager: true });

/** Every state but the loading ones (which show only the shared loading text). */
const STATES = Object.entries(modules).flatMap(([file, m]) =>
  Object.entries(m)
    .filter(([name]) => name !== 'default')
    .map(([name, story]) => [`${file.replace(/^.*\/(.*)\.stories\.tsx$/, '$1')} ${name}`, { ...m.default.args, ...story.args }] as const)
    .filter(([, args]) => !args.pending),
);

/** The plain texts of a table by key path. */
function texts(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]): [string, string][] => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') return [[path, v]];
    if (typeof v === 'function') return [];
    return texts(v as Tree, path);
  });
}

/**
 * The English the server made, from the fake's answers: a text sent with its parts (args) —
 * an order item's description, an audit entry's detail, a timeline event's summary — and a fixed
 * promotion's plain value sent with its amount; and an audit entry's action, a code. The console words these from the parts, so none
 * may show as the server wrote it.
 */
function serverEnglish(body: unknown, out: Set<string>): void {
  if (Array.isArray(body)) return body.forEach((b) => serverEnglish(b, out));
  if (!body || typeof body !== 'object') return;
  const o = body as Record<string, unknown>;
  if (Array.isArray(o.args)) {
    if (typeof o.summary === 'string') out.add(o.summary);
    if (typeof o.action === 'string') out.add(o.action); // an audit entry's action: a code, worded by the console
    for (const k of ['description', 'detail'] as const) if (o.args.length > 0 && typeof o[k] === 'string' && o[k]) out.add(o[k]);
  }
  if (o.type === 'Fixed Amount' && o.amount && typeof o.value === 'string') out.add(o.value);
  if (typeof o.reason === 'string' && 'refundable' in o) out.add(o.reason); // a payment to review's reason: a code
  Object.values(o).forEach((v) => serverEnglish(v, out));
}

/** What the page says: its text nodes and its labels. */
function shown(): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent?.trim()) out.push(n.textContent.trim());
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]'))
    for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a)!.trim());
  return out;
}

describe('the console in German', () => {
  it('has every screen’s stories to check', () => expect(STATES.length).toBeGreaterThan(40));

  it.each(STATES)('%s shows no English', async (_, args) => {
    const en = new Map(texts(await tableOf('en')));
    const de = new Map(texts(await tableOf('de-de')));
    // English texts German words the same ("Status", "Webhooks") are not English left behind.
    const english = new Set([...en].filter(([k, s]) => de.get(k) !== s).map(([, s]) => s));
    await switchLocale('de-de');
    navigate(`/checkout/admin/${args.path}`, true);
    const fake = args.routes(new FakeApi(args.role === undefined ? 'owner' : args.role));
    const fetch: typeof fake.fetch = async (input, init) => {
      const res = await fake.fetch(input, init);
      if (res.headers.get('content-type')?.includes('json'))
        serverEnglish(
          await res
            .clone()
            .json()
            .catch(() => null),
          english,
        );
      return res;
    };
    render(<App fetch={fetch} />);
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(screen.queryByText('Wird geladen…')).toBeNull());
    expect(shown().filter((s) => english.has(s))).toEqual([]);
  });
});
