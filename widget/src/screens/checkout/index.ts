// The checkout chunk (dist/checkout.js): the form below the plan cards and the landing URL's actions.
export { CheckoutForm } from './CheckoutForm';
export { runLanding } from './landing';
export { CardTerms } from '../../ui/terms';
