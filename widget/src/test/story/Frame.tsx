// One shared component on its own, as the widget shows it: in an open shadow root with the widget's
// CSS (widget.css first, then the sheets the component adopts with useSheet, as the element's Shell
// does), under a .sc-root, with a controller and the loaded texts of the locale. The ui/ stories
// render their component in it, and the ui/ tests render the same frame.
import { useCallback, useEffect, useMemo, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import root from 'react-shadow';
import { Controller } from '../../core/controller';
import { readConfig } from '../../element/attributes';
import { constructedSheet, SheetContext, sharedSheet, widgetCss } from '../../element/styles';
import { bcp47, normalizeLocale, type LocaleCode } from '../../i18n/locale';
import { loadTexts, type Area } from '../../i18n/messages';
import { ControllerContext, LocaleContext } from '../../ui/context';

const ShadowDiv = root.div!;

/** The text areas the shared components read (useI18n, useTexts('checkout' | 'order')). */
const AREAS: readonly Area[] = ['plans', 'checkout', 'order'];

/**
 * A controller for a Frame to start with (routing, a failure…): what HomeLink, ManageLink and
 * ErrorView read and call. Its host is a detached element; without one, the Frame's controller is
 * the frame's own shadow host's (what step focus looks at).
 */
export function frameController(attrs: Record<string, string> = {}): Controller {
  const host = document.createElement('div');
  for (const [k, v] of Object.entries(attrs)) host.setAttribute(k, v);
  return new Controller(host, readConfig(host));
}

export function Frame({ locale = 'en', controller, children }: { locale?: string; controller?: Controller; children: ReactNode }) {
  const code: LocaleCode = normalizeLocale(locale) ?? 'en';
  const [c, setC] = useState<Controller | null>(controller ?? null);
  const hostRef = useCallback((host: HTMLElement | null) => {
    if (host) setC((current) => current ?? new Controller(host, readConfig(host)));
  }, []);
  const [shown, setShown] = useState<LocaleCode | null>(null);
  useEffect(() => {
    let live = true;
    void loadTexts(code, AREAS).then(() => {
      if (live) setShown(code);
    });
    return () => {
      live = false;
    };
  }, [code]);

  const sheet = sharedSheet();
  const [more, setMore] = useState<string[]>([]);
  const addSheet = useCallback((css: string) => setMore((list) => (list.includes(css) ? list : [...list, css])), []);
  const sheets = useMemo(() => (sheet ? [sheet, ...more.map(constructedSheet)] : []), [sheet, more]);

  return (
    <ShadowDiv ref={hostRef} mode="open" styleSheets={sheets} data-component-frame="">
      {!sheet && <style>{widgetCss()}</style>}
      {!sheet && more.map((css, i) => <style key={i}>{css}</style>)}
      <SheetContext.Provider value={addSheet}>
        <ControllerContext.Provider value={c}>
          {c && shown && (
            <LocaleContext.Provider value={shown}>
              <div className="sc-root" lang={bcp47(shown)} style={{ padding: 24 }}>
                {children}
              </div>
            </LocaleContext.Provider>
          )}
        </ControllerContext.Provider>
      </SheetContext.Provider>
    </ShadowDiv>
  );
}

/**
 * A story's render: `Component` with the story's args in a Frame, in the toolbar's locale (the
 * preview's own render shows the whole widget).
 */
export function inFrame<P extends object>(Component: ComponentType<P>) {
  return function render(args: P, { globals }: { globals: Record<string, unknown> }): ReactElement {
    return (
      <Frame locale={typeof globals.locale === 'string' ? globals.locale : 'en'}>
        <Component {...args} />
      </Frame>
    );
  };
}
