// What the after-sale screens take from the rest of the widget. Their chunk imports these from the
// entry's modules, so contexts, the ApiError class and React are shared, never copied.
export { useCheckout, useController, useErrorText, useI18n, useResource } from '../flow/context';
export { Centered, HomeLink } from '../flow/Views';
export { refocus, useStepFocus } from '../flow/focus';
export { CopyButton } from '../flow/CopyButton';
export { Icon } from '../flow/iconsMore';
export { EmailField, isValidEmail } from '../flow/EmailField';
export { PlanGrid } from '../flow/PlanGrid';
export { ensureSession } from '../flow/order';
export { isApiError, ApiError } from '../api/client';
export { browser } from '../state/browser';
export { catalogKey } from '../state/catalog';
export { timing } from '../flow/timing';
