// happy-dom defines nodeName/nodeType getters on each node class and a base getter
// on Node.prototype that does not dispatch. Browsers' Node.prototype getters work
// for every node, and DOMPurify reads them from Node.prototype. This makes the
// base getters dispatch to the node's own class, as in a browser, so the
// sanitizer runs in the test DOM the way it runs in the extension.
function dispatch(prop: 'nodeName' | 'nodeType'): void {
  const base = Object.getOwnPropertyDescriptor(Node.prototype, prop)?.get;
  if (!base) return;
  Object.defineProperty(Node.prototype, prop, {
    configurable: true,
    get(this: Node): unknown {
      let proto: object | null = Object.getPrototypeOf(this) as object | null;
      while (proto && proto !== Node.prototype) {
        const own = Object.getOwnPropertyDescriptor(proto, prop)?.get;
        if (own) return own.call(this);
        proto = Object.getPrototypeOf(proto) as object | null;
      }
      return base.call(this);
    },
  });
}

dispatch('nodeName');
dispatch('nodeType');
