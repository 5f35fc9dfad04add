// Entry of the classic-script build (dist/streamcart.iife.js): defines <streamcart-checkout> and
// exports nothing, so the page gets no global variable. The class is customElements.get(TAG).
import './index';
