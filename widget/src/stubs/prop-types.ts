// react-shadow declares propTypes on its components, which React 19 never reads. In the script-tag
// builds this stands in for prop-types (whose production build is a larger no-op of the same API).
type Shim = (() => null) & { isRequired: Shim };
const shim = (() => null) as Shim;
shim.isRequired = shim;
const getShim = () => shim;

const PropTypes = {
  array: shim,
  bigint: shim,
  bool: shim,
  func: shim,
  number: shim,
  object: shim,
  string: shim,
  symbol: shim,
  any: shim,
  arrayOf: getShim,
  element: shim,
  elementType: shim,
  instanceOf: getShim,
  node: shim,
  objectOf: getShim,
  oneOf: getShim,
  oneOfType: getShim,
  shape: getShim,
  exact: getShim,
  checkPropTypes: () => undefined,
  resetWarningCache: () => undefined,
};

export default PropTypes;
