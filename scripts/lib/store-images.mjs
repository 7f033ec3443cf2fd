// @ts-check
// The pages `npm run store:screens` renders into the store images: a 1280×800 canvas with a
// headline, a browser window drawn around a page screenshot of the demo (address bar, Skillpin's
// toolbar icon with the badge the demo read from the browser), and the popup screenshot beside it
// at its real size; and the 440×280 promo tile with the extension's own icon. Everything is
// inlined (data: URLs), so rendering it makes no request at all.

/** @param {string} s */
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** @param {Buffer} png */
export const dataUrl = (png) => `data:image/png;base64,${png.toString('base64')}`;

/** @param {number[] | null | undefined} rgba */
function cssColor(rgba) {
  if (!Array.isArray(rgba) || rgba.length < 3) return '#5b6470';
  const [r, g, b, a = 255] = rgba;
  return `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(3)})`;
}

const FONT = "'DejaVu Sans', 'Noto Sans', 'Liberation Sans', Arial, sans-serif";

const BASE_CSS = `
  * { box-sizing: border-box; margin: 0; }
  html, body { width: 1280px; height: 800px; overflow: hidden; }
  body { font-family: ${FONT}; background: #e8eef2; color: #1d2733; position: relative; }
  .headline { position: absolute; left: 48px; top: 34px; right: 48px; }
  .headline h1 { font-size: 34px; line-height: 1.2; font-weight: 700; letter-spacing: -0.01em; }
  .headline p { margin-top: 8px; font-size: 19px; line-height: 1.35; color: #43505e; }
  .window { position: absolute; top: 150px; border-radius: 10px; background: #fff; overflow: hidden;
    box-shadow: 0 18px 40px rgba(20, 35, 50, 0.18), 0 0 0 1px rgba(20, 35, 50, 0.10); }
  .bar { height: 46px; background: #e9edf1; display: flex; align-items: center; gap: 10px; padding: 0 12px; border-bottom: 1px solid #d3d9df; }
  .dots { display: flex; gap: 7px; }
  .dots i { width: 12px; height: 12px; border-radius: 50%; background: #c3cad2; display: block; }
  .address { flex: 1; height: 30px; border-radius: 15px; background: #fff; border: 1px solid #d3d9df; font-size: 14px; color: #3b4651;
    display: flex; align-items: center; padding: 0 14px; white-space: nowrap; overflow: hidden; }
  .icon { position: relative; width: 34px; height: 34px; display: flex; align-items: center; justify-content: center; border-radius: 8px; }
  .icon.open { background: #d5dde5; }
  .icon img { width: 24px; height: 24px; }
  .badge { position: absolute; right: -3px; bottom: -1px; min-width: 18px; height: 16px; padding: 0 4px; border-radius: 4px;
    color: #fff; font-size: 11px; font-weight: 700; line-height: 16px; text-align: center; }
  .page { position: relative; overflow: hidden; background: #fff; }
  .page img { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
  .popup { position: absolute; top: 150px; width: 402px; border-radius: 8px; overflow: hidden; background: #fff;
    box-shadow: 0 18px 44px rgba(20, 35, 50, 0.26), 0 0 0 1px rgba(20, 35, 50, 0.16); }
  .popup img { display: block; }
  .zoom { position: absolute; width: 240px; height: 240px; border-radius: 50%; background: #e9edf1;
    box-shadow: 0 18px 40px rgba(20, 35, 50, 0.22), 0 0 0 6px #fff, 0 0 0 7px rgba(20, 35, 50, 0.12);
    display: flex; align-items: center; justify-content: center; }
  .zoom .icon { width: 128px; height: 128px; border-radius: 24px; }
  .zoom .icon img { width: 96px; height: 96px; }
  .zoom .badge { min-width: 60px; height: 50px; line-height: 50px; font-size: 34px; border-radius: 10px; padding: 0 12px; right: -14px; bottom: -6px; }
  .leader { position: absolute; height: 2px; background: rgba(20, 35, 50, 0.25); transform-origin: 0 50%; }
`;

/**
 * @typedef {{ png: Buffer, scale: number, width: number, height: number }} PageShot
 * @typedef {{ png: Buffer, height: number }} PopupShot
 * @typedef {{ headline: string, sub: string, url: string, badge: string, badgeColor?: number[] | null,
 *   icon: Buffer, page: PageShot, popup?: PopupShot | null, windowWidth: number, zoom?: boolean }} ScreenSpec
 */

/**
 * One store screenshot: the headline, a browser window around the page, and the popup beside it.
 * @param {ScreenSpec} spec
 */
export function screenHtml(spec) {
  const { page, popup } = spec;
  const left = 48;
  const windowHeight = 46 + page.height;
  const popupLeft = left + spec.windowWidth + 24;
  const badge = spec.badge ? `<span class="badge" style="background:${cssColor(spec.badgeColor)}">${esc(spec.badge)}</span>` : '';
  const popupBox = popup ? `<div class="popup" style="left:${popupLeft}px;height:${popup.height}px"><img src="${dataUrl(popup.png)}" width="400" alt=""></div>` : '';
  // The toolbar icon enlarged, below it in the window, with a line back to it.
  const zoom = spec.zoom
    ? `<div class="leader" style="left:${left + spec.windowWidth - 32}px;top:196px;width:150px;transform:rotate(118deg)"></div>
  <div class="zoom" style="left:${left + spec.windowWidth - 300}px;top:300px"><div class="icon"><img src="${dataUrl(spec.icon)}" alt="">${badge}</div></div>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${BASE_CSS}</style></head><body>
  <div class="headline"><h1>${esc(spec.headline)}</h1><p>${esc(spec.sub)}</p></div>
  <div class="window" style="left:${left}px;width:${spec.windowWidth}px;height:${windowHeight}px">
    <div class="bar"><div class="dots"><i></i><i></i><i></i></div>
      <div class="address">${esc(spec.url)}</div>
      <div class="icon${popup ? ' open' : ''}"><img src="${dataUrl(spec.icon)}" alt="">${badge}</div></div>
    <div class="page" style="height:${page.height}px"><img src="${dataUrl(page.png)}" style="transform:scale(${page.scale})" alt=""></div>
  </div>${popupBox}${zoom}
</body></html>`;
}

/**
 * The 440×280 promo tile: the extension's icon, its name and one line.
 * @param {{ icon: Buffer, name: string, line: string }} spec
 */
export function promoTileHtml(spec) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  html, body { width: 440px; height: 280px; overflow: hidden; }
  body { font-family: ${FONT}; background: #1b5e34; color: #fff;
    display: flex; align-items: center; gap: 22px; padding: 0 34px; }
  img { width: 112px; height: 112px; flex: none; filter: drop-shadow(0 6px 10px rgba(0, 0, 0, 0.25)); }
  h1 { font-size: 44px; font-weight: 700; letter-spacing: -0.01em; }
  p { margin-top: 10px; font-size: 18px; line-height: 1.3; color: #dcefe2; }
  .icon-bg { background: #fff; border-radius: 28px; padding: 10px; flex: none; }
  </style></head><body><div class="icon-bg"><img src="${dataUrl(spec.icon)}" alt=""></div>
  <div><h1>${esc(spec.name)}</h1><p>${esc(spec.line)}</p></div></body></html>`;
}
