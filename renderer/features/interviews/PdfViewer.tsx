import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { useT } from '../../i18n/index';
import { Button } from '../../ui/index';
import { messages } from './messages';

let pdfjsModule: Promise<typeof import('pdfjs-dist')> | null = null;

/** pdf.js loaded on first use, with its worker started from our own bundle. */
function loadPdfJs() {
  pdfjsModule ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerPort = new Worker(new URL('./pdf-worker.ts', import.meta.url), { type: 'module' });
    return pdfjs;
  });
  return pdfjsModule;
}

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/**
 * A contract rendered in the app: pages drawn on a canvas by pdf.js, read through the media route with range
 * requests. `onExpired` is called once when loading fails, so the caller can renew the link.
 */
export function PdfViewer({
  url,
  title,
  onClose,
  onFailed,
}: {
  url: string;
  title: string;
  onClose: () => void;
  onFailed: () => boolean;
}) {
  const t = useT(messages);
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const viewer = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [page, setPage] = useState(1);
  // 'fit': the page as wide as the viewer (at 100 % a Letter page is wider than the findings column and was cut).
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const [fitScale, setFitScale] = useState(1);
  const [boxWidth, setBoxWidth] = useState(0);
  const [failed, setFailed] = useState(false);

  // Opened low in its column (a tall window puts the contracts near its bottom), the document would start below the
  // fold: it is brought up, once, so its first page is what the click shows.
  useEffect(() => {
    const el = viewer.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) el.scrollIntoView({ block: 'start' });
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(() => setBoxWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [doc, failed]);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setFailed(false);
    setDoc(null);
    void loadPdfJs()
      .then((pdfjs) => pdfjs.getDocument({ url, disableAutoFetch: true, isEvalSupported: false }).promise)
      .then((d) => {
        loaded = d;
        if (cancelled) void d.destroy();
        else {
          setDoc(d);
          setPage(1);
        }
      })
      .catch(() => {
        if (!cancelled && !onFailed()) setFailed(true);
      });
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
    // onFailed is a callback of the caller; reloading is driven by the URL only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  useEffect(() => {
    if (!doc || !canvas.current) return;
    let task: RenderTask | null = null;
    let cancelled = false;
    void doc.getPage(page).then((p) => {
      if (cancelled || !canvas.current) return;
      const ratio = window.devicePixelRatio || 1;
      // The box's padding (0.5rem each side) stays clear of the page.
      const fit = boxWidth > 0 ? Math.max(0.25, (boxWidth - 18) / p.getViewport({ scale: 1 }).width) : 1;
      setFitScale(fit);
      const viewport = p.getViewport({ scale: (zoom === 'fit' ? fit : zoom) * ratio });
      canvas.current.width = viewport.width;
      canvas.current.height = viewport.height;
      canvas.current.style.width = `${viewport.width / ratio}px`;
      task = p.render({ canvas: canvas.current, viewport });
      task.promise.catch(() => undefined);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, page, zoom, boxWidth]);

  const scale = zoom === 'fit' ? fitScale : zoom;
  const zoomOut = [...ZOOMS].reverse().find((z) => z < scale - 0.001);
  const zoomIn = ZOOMS.find((z) => z > scale + 0.001);
  return (
    <div className="pdf-viewer" role="group" aria-label={title} data-testid="pdf-viewer" ref={viewer}>
      {/* The page buttons with the page between them, and − zoom +, each wrap as one piece, never split. */}
      <div className="player-controls pdf-toolbar">
        <div className="pdf-toolbar-group">
          <Button onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={!doc || page <= 1}>
            {t('pdfPrev')}
          </Button>
          <span className="num small" aria-live="polite" data-testid="pdf-page">
            {doc ? t('pdfPage', { page, pages: doc.numPages }) : '…'}
          </span>
          <Button
            onClick={() => setPage((p) => Math.min(doc?.numPages ?? 1, p + 1))}
            disabled={!doc || page >= doc.numPages}
          >
            {t('pdfNext')}
          </Button>
        </div>
        <div className="pdf-toolbar-group">
          <Button onClick={() => zoomOut && setZoom(zoomOut)} disabled={!zoomOut} aria-label={t('zoomOut')}>
            −
          </Button>
          <span className="num small pdf-zoom-level" data-testid="pdf-zoom">
            {t('zoomLevel', { pct: Math.round(scale * 100) })}
          </span>
          <Button onClick={() => zoomIn && setZoom(zoomIn)} disabled={!zoomIn} aria-label={t('zoomIn')}>
            +
          </Button>
        </div>
        <Button onClick={() => setZoom('fit')} disabled={zoom === 'fit'} aria-pressed={zoom === 'fit'}>
          {t('zoomFit')}
        </Button>
        <Button variant="link" onClick={onClose}>
          {t('pdfClose')}
        </Button>
      </div>
      {failed ? (
        <p className="notice notice-danger" role="alert">
          {t('pdfError')}
        </p>
      ) : (
        <div
          className="pdf-canvas"
          ref={box}
          tabIndex={0}
          role="region"
          aria-label={t('pdfPage', { page, pages: doc?.numPages ?? 1 })}
        >
          <canvas ref={canvas} aria-label={title} role="img" />
        </div>
      )}
    </div>
  );
}
