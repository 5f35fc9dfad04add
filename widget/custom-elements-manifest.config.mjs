// Custom Elements Manifest analyzer (`npm run analyze -w widget` → custom-elements.json, listed in
// package.json). The element's tag, attributes, events, CSS properties and parts come from the
// JSDoc of StreamcartCheckoutElement. The package ships one module, lib/index.js, which exports
// the class: the manifest names that path instead of the source file.
export default {
  globs: ['src/element/element.tsx'],
  outdir: '.',
  plugins: [
    {
      name: 'streamcart-package-path',
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          mod.path = 'lib/index.js';
          for (const exp of mod.exports ?? []) if (exp.declaration?.module) exp.declaration.module = 'lib/index.js';
          // Only the element and its tag are the package's public API here.
          mod.declarations = (mod.declarations ?? []).filter((d) => d.customElement);
          mod.exports = (mod.exports ?? []).filter((e) => e.kind === 'custom-element-definition' || e.name === 'StreamcartCheckoutElement');
          // define() registers the class under the TAG constant, which the analyzer cannot follow.
          for (const exp of mod.exports) {
            if (exp.kind === 'custom-element-definition') {
              exp.name = 'streamcart-checkout';
              exp.declaration = { name: 'StreamcartCheckoutElement', module: 'lib/index.js' };
            }
          }
        }
      },
    },
  ],
};
