// A long id in a table (ord_01m8jpq5n2g187w8eww28tm5mp is 30 characters of monospace): shown
// abbreviated in the middle (ord_01m8…28tm5mp, the head names the kind, the tail tells neighbours
// apart since ids made in the same second share their start), so a table fits at 1280 px in every
// language. The whole id is its accessible text (a link named by it, a search by it) and its
// tooltip; its detail page shows it in full.

/** HEAD and TAIL are the characters kept at either end; ids up to KEEP characters stay whole. */
const HEAD = 8;
const TAIL = 6;
const KEEP = HEAD + TAIL + 4;

/** shortId is the id as the table shows it. */
export function shortId(id: string): string {
  return id.length <= KEEP ? id : `${id.slice(0, HEAD)}…${id.slice(-TAIL)}`;
}

export function Id({ value }: { value: string }) {
  const short = shortId(value);
  if (short === value) return <code>{value}</code>;
  return (
    <code className="id" title={value}>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{value}</span>
    </code>
  );
}
