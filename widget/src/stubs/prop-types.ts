// react-shadow declares propTypes on its components, which React 19 never reads. In the script-tag
// builds this stands in for prop-types (whose production build is a larger no-op of the same API):
// every validator, every validator factory's result and every .isRequired is the same no-op.
const shim: unknown = new Proxy(() => shim, { get: () => shim });

export default shim;
