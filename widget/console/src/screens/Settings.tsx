// Settings (GET /admin/settings, owner): every setting in force on this replica, with where its
// value comes from (default, environment, flag), read only. Secrets come masked from the server;
// a secret read from a file shows the file's path.
import { useConsole } from '../context';
import { t } from '../messages';
import type { Setting } from '../schemas';
import { Loading, Table, useLoad, type Column } from '../ui';

export function Settings() {
  const { api } = useConsole();
  const list = useLoad(() => api.settings.list(), 'settings');
  const columns: Column<Setting>[] = [
    { header: t.colSetting, cell: (s) => <code>{s.name}</code> },
    { header: t.colVariable, cell: (s) => <code>{s.env}</code> },
    { header: t.colFlag, cell: (s) => (s.flag ? <code>{s.flag}</code> : '—') },
    {
      header: t.colValue,
      cell: (s) => (
        <span className="value">
          {s.value === '' ? '—' : <code>{s.value}</code>}
          {s.secret && <span className="muted"> {t.secretNote}</span>}
        </span>
      ),
    },
    { header: t.colSource, cell: (s) => t.sources[s.source] },
    { header: t.colMeaning, cell: (s) => s.description },
  ];
  return (
    <>
      <p>{t.settingsIntro}</p>
      <Loading what={list} />
      {list.data && (
        <div className="settings">
          <Table caption={t.settingsCaption} hideCaption cards columns={columns} rows={list.data.settings} rowKey={(s) => s.name} />
        </div>
      )}
    </>
  );
}
