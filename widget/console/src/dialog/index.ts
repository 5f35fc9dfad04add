export { ConfirmDialog, newIdempotencyKey, type ConfirmDialogProps } from './ConfirmDialog';
