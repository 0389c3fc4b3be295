// Stylesheets are imported for their side effect (Vite bundles them); TypeScript 7 checks that such an import names
// a module it knows.
declare module '*.css';
