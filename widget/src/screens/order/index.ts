// The order chunk (dist/order.js): creating the order, waiting for the payment, the success page.
export { CreatingOrder } from './CreatingOrder';
export { Waiting } from './Waiting';
export { Success } from './Success';
