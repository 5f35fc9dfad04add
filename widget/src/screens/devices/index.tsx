// The device setup chunk (dist/devices.js): the "Set up your device" panel of the success page and
// of each line in the services view.
export { DeviceSetup, type DeviceSetupProps, type Line } from './DeviceSetup';
