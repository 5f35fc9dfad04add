// A stand-in Xtream UI panel for the end-to-end tests (`--panel xtream`): the admin API actions
// the shop's adapter (api/panel/xtream.go) sends, lines kept in memory, and a switch that makes
// every call fail with 503 as a panel under maintenance does.
import { createServer } from 'node:http';

/** startFakePanel listens on 127.0.0.1 and resolves with { url, lines, down(), up(), stop() }. */
export async function startFakePanel() {
  const lines = new Map(); // id → user_info
  let failing = false;
  let calls = 0;
  let nextId = 1;

  const server = createServer(async (req, res) => {
    calls++;
    let body = '';
    for await (const chunk of req) body += chunk;
    const answer = (status, json) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (failing) return answer(503, { result: false, error: 'panel under maintenance' });
    const url = new URL(req.url, 'http://panel');
    if (req.method !== 'POST' || url.pathname !== '/api.php') return answer(404, { result: false, error: 'no such page' });
    const form = new URLSearchParams(body);
    const data = (k) => form.get(`user_data[${k}]`);
    const line = lines.get(form.get('user_id') ?? '');
    switch (`${url.searchParams.get('action')}/${url.searchParams.get('sub')}`) {
      case 'user/create': {
        const username = data('username');
        if ([...lines.values()].some((l) => l.username === username))
          return answer(200, { result: false, error: 'username already exists' });
        const id = String(nextId++);
        lines.set(id, {
          id,
          username,
          password: data('password'),
          max_connections: data('max_connections'),
          exp_date: data('exp_date') || null,
          is_trial: data('is_trial'),
          enabled: 1,
          admin_enabled: 1,
        });
        return answer(200, { result: true, created_id: id });
      }
      case 'user/info':
        return line ? answer(200, { result: true, user_info: line }) : answer(200, { result: false, error: 'no such user' });
      case 'user/edit':
        if (!line) return answer(200, { result: false, error: 'no such user' });
        for (const [k, v] of form) {
          const m = /^user_data\[(\w+)\]$/.exec(k);
          if (m) line[m[1]] = v;
        }
        return answer(200, { result: true });
      case 'user/enable':
      case 'user/disable':
        if (!line) return answer(200, { result: false, error: 'no such user' });
        line.enabled = url.searchParams.get('sub') === 'enable' ? 1 : 0;
        return answer(200, { result: true });
      case 'user/delete':
        lines.delete(form.get('user_id') ?? '');
        return answer(200, { result: true });
      default:
        return answer(200, { result: false, error: 'unknown action' });
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    lines,
    calls: () => calls,
    down() {
      failing = true;
    },
    up() {
      failing = false;
    },
    stop: () => new Promise((ok) => server.close(ok)),
  };
}
