// The few page-level side effects, behind one object so tests can observe them.
export const browser = {
  /** Leaves the page for a payment link. */
  assign(url: string): void {
    window.location.assign(url);
  },
  scrollToTop(): void {
    if (typeof window.scrollTo === 'function') window.scrollTo({ top: 0 });
  },
  uuid(): string {
    if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
    // randomUUID needs a secure context; getRandomValues does not.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  },
};
