// Build-time stand-in for ./shared in dist/aftersale.js: live bindings filled by provide() with
// the main bundle's own modules before any screen renders.
import type * as S from './shared';

export let useCheckout: typeof S.useCheckout;
export let useController: typeof S.useController;
export let useErrorText: typeof S.useErrorText;
export let useI18n: typeof S.useI18n;
export let useResource: typeof S.useResource;
export let Centered: typeof S.Centered;
export let HomeLink: typeof S.HomeLink;
export let refocus: typeof S.refocus;
export let useStepFocus: typeof S.useStepFocus;
export let CopyButton: typeof S.CopyButton;
export let Icon: typeof S.Icon;
export let EmailField: typeof S.EmailField;
export let isValidEmail: typeof S.isValidEmail;
export let PlanGrid: typeof S.PlanGrid;
export let ensureSession: typeof S.ensureSession;
export let isApiError: typeof S.isApiError;
export let ApiError: typeof S.ApiError;
export let browser: typeof S.browser;
export let timing: typeof S.timing;

export function provide(kit: typeof S): void {
  ({ useCheckout, useController, useErrorText, useI18n, useResource, Centered, HomeLink, refocus, useStepFocus, CopyButton, Icon, EmailField, isValidEmail, PlanGrid, ensureSession, isApiError, ApiError, browser, timing } = kit);
}
