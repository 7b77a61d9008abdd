/**
 * Building elements without HTML strings: every text the page shows goes in through
 * textContent (or a text node), so nothing the server or a player sends can become
 * markup.
 */

const SVG = "http://www.w3.org/2000/svg";

/**
 * Set an element's attributes and properties: `on*` functions become listeners,
 * `dataset` fills data-*, `text` sets textContent, `false`/`null`/`undefined` leave an
 * attribute out (so a condition can switch it off in place).
 * @param {Element} node
 * @param {Record<string, unknown>} props
 */
function apply(node, props) {
  for (const [key, value] of Object.entries(props)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(/** @type {HTMLElement} */ (node).dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
}

/**
 * An HTML element.
 * @param {string} tag
 * @param {Record<string, unknown>} [props]
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  apply(node, props);
  append(node, children);
  return node;
}

/**
 * An SVG element (SVG needs its own namespace, or the browser draws nothing).
 * @param {string} tag
 * @param {Record<string, unknown>} [props]
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {SVGElement}
 */
export function svg(tag, props = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  apply(node, props);
  append(node, children);
  return /** @type {SVGElement} */ (node);
}

/**
 * Append children, skipping the empty ones a condition left out.
 * @param {Node} node
 * @param {Array<Node|string|null|undefined|false>} children
 */
export function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/**
 * Replace everything inside a node.
 * @param {Node} node
 * @param {...(Node|string|null|undefined|false)} children
 */
export function replace(node, ...children) {
  while (node.firstChild) node.removeChild(node.firstChild);
  append(node, children);
}
