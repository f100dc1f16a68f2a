// The circuit breaker: after a run of consecutive failed requests the service is taken to be
// down, and the client stops calling it for the rest of the run instead of hammering it.
// A run is short, so there is no half-open state: the next run is the next try.

export class CircuitBreaker {
  readonly #threshold: number;
  #consecutive = 0;
  #lastFailure = '';

  /** `threshold`: consecutive failures that open the circuit. */
  constructor(threshold: number) {
    if (!Number.isInteger(threshold) || threshold < 1) {
      throw new RangeError(`Expected the circuit breaker threshold to be an integer >= 1, got ${threshold}`);
    }
    this.#threshold = threshold;
  }

  get isOpen(): boolean {
    return this.#consecutive >= this.#threshold;
  }

  /** Any answer the service gave on purpose (success or a 4xx about the request) closes the streak. */
  recordSuccess(): void {
    if (!this.isOpen) this.#consecutive = 0;
  }

  /** Returns true when this failure is the one that opened the circuit. */
  recordFailure(description: string): boolean {
    if (this.isOpen) return false;
    this.#consecutive++;
    this.#lastFailure = description;
    return this.isOpen;
  }

  /** Why the circuit is open, for the run's note. */
  describe(): string {
    return `failed ${this.#threshold} requests in a row (the last: ${this.#lastFailure})`;
  }
}
