// Entry of the pdf.js worker: Vite bundles it as a module worker, so no plugin and nothing loaded from a CDN.
import 'pdfjs-dist/build/pdf.worker.min.mjs';
