// ApproveButton releases a held order after asking in a dialog how and saying what follows:
// request-payment (support and owner) puts it back to pending and mails the buyer a pay link;
// provision (owner) sets its lines up unpaid, recorded as such in the audit log.
import { useState } from 'react';
import type { ApproveMode } from '../api';
import { useConsole } from '../context';
import { formatMoney } from '../format';
import { t } from '../messages';
import type { Order } from '../schemas';
import { ErrorNote, useAction } from '../ui';
import { ConfirmDialog } from '../ui/Dialog';

export function ApproveButton({ order, onDone, primary }: { order: Order; onDone: (text: string) => void; primary?: boolean }) {
  const { api, can } = useConsole();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<ApproveMode>('request-payment');
  const action = useAction();
  const mayProvision = can('provisionUnpaid');
  const close = () => {
    setOpen(false);
    setMode('request-payment');
    action.clear();
  };
  const confirm = () =>
    void action.run(async () => {
      await api.orders.approve(order.id, mode);
      const text = mode === 'provision' ? t.provisionedUnpaid(order.id) : t.paymentRequested(order.id, order.email);
      close();
      onDone(text);
      return text;
    });
  const name = `approve-mode-${order.id}`;
  return (
    <>
      <button type="button" className={primary ? 'primary' : undefined} disabled={!can('requestPayment')} onClick={() => setOpen(true)}>
        {t.approve}
      </button>
      <ConfirmDialog
        open={open}
        onClose={close}
        title={t.approveTitle(order.id)}
        confirmLabel={t.confirmApprove}
        onConfirm={confirm}
        busy={action.busy}
        danger={false}
        effect={
          <p data-testid="approve-effect">
            {mode === 'provision'
              ? t.modeProvisionEffect(formatMoney(order.total))
              : t.modeRequestPaymentEffect(order.email, formatMoney(order.total))}
          </p>
        }
      >
        <fieldset className="choice">
          <legend>{t.approveModeLabel}</legend>
          <div className="check">
            <input
              id={`${name}-pay`}
              type="radio"
              name={name}
              checked={mode === 'request-payment'}
              onChange={() => setMode('request-payment')}
            />
            <label htmlFor={`${name}-pay`}>{t.modeRequestPayment}</label>
          </div>
          <div className="check">
            <input
              id={`${name}-provision`}
              type="radio"
              name={name}
              disabled={!mayProvision}
              checked={mode === 'provision'}
              onChange={() => setMode('provision')}
            />
            <label htmlFor={`${name}-provision`}>{t.modeProvision}</label>
          </div>
        </fieldset>
        {!mayProvision && <p className="muted">{t.modeProvisionForbidden}</p>}
        {action.result && 'error' in action.result && <ErrorNote error={action.result.error} />}
      </ConfirmDialog>
    </>
  );
}
