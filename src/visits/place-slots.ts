import type { Place } from '../core/visit-ports.js';

/** Places of one batch at most, slot 0 ("unknown") included: the classifier keys a visit by its slot. */
export const PLACE_SLOTS = 8_192;
/** Slots only a country without a city may take, so a batch from more cities than fit still keeps its countries. */
const COUNTRY_ROOM = 512;

const keyOf = (place: Place) => `${place.country}\t${place.region ?? ''}\t${place.city ?? ''}`;

/**
 * The distinct places of one flush, each with a small number (its slot), so that a visit's facts
 * are keyed by numbers: slot 0 is "unknown". Past the slots a city can take, a visit keeps its
 * country only; there are fewer countries than the room kept for them.
 */
export class PlaceSlots {
  private readonly places: (Place | null)[] = [null];
  private readonly slots = new Map<string, number>();

  slotOf(place: Place | null): number {
    if (place === null) return 0;
    const key = keyOf(place);
    let slot = this.slots.get(key);
    if (slot === undefined) {
      const hasCity = place.city !== null || place.region !== null;
      if (this.places.length >= PLACE_SLOTS - (hasCity ? COUNTRY_ROOM : 0)) {
        return hasCity ? this.slotOf({ country: place.country, region: null, city: null }) : 0;
      }
      slot = this.places.push(place) - 1;
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** The place in a slot; null for slot 0. */
  placeAt(slot: number): Place | null {
    return this.places[slot] ?? null;
  }
}
