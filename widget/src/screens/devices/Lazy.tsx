// The device panel where a screen shows it: its chunk (and its texts) load when it first renders,
// never with the first paint.
import { lazy, Suspense } from 'react';
import type { DeviceSetupProps } from './DeviceSetup';

const Panel = lazy(() => import('./index').then((m) => ({ default: m.DeviceSetup })));

export function LazyDeviceSetup(props: DeviceSetupProps) {
  return (
    <Suspense fallback={null}>
      <Panel {...props} />
    </Suspense>
  );
}
