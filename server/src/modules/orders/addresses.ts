// Address rules by country (v2 spec section 5): postcode and house number required for NL, BE and DE;
// a missing house number is taken from the street, and an address still without one makes the order Not Valid.
import { houseNumberRequiredCountries } from '@shopapi/contract';
import type { FieldPath } from '../../platform/errors.ts';
import type { InputWarnings } from '../../platform/request-warnings.ts';
import type { AddressInput } from './service.ts';

/** "Kerkstraat 12", "Kerkstraat 12a", "Kerkstraat 12-3": the street, then the number, then an addition. */
const numberAtEnd = /^(.*\S)[\s,]+(\d{1,6})\s*[-/]?\s*([A-Za-z0-9]{1,10})?$/;

export interface CheckedAddress {
  address: AddressInput;
  /** false: the house number is required and could not be found; the order waits until one is added. */
  valid: boolean;
  /** A rule the address breaks outright (the order is refused). */
  problem?: string;
}

/** The warning that a house number was taken from the street names the street by `streetPath`. */
export function checkAddress(
  address: AddressInput,
  role: 'delivery' | 'billing',
  warnings: InputWarnings = { add() {} },
  streetPath?: FieldPath,
): CheckedAddress {
  const country = address.countryCode.toUpperCase().slice(0, 2);
  if (!houseNumberRequiredCountries.has(country)) return { address, valid: true };
  if (!address.postcode?.trim()) return { address, valid: true, problem: `The ${role} address needs a postal code in ${country}.` };
  if (address.houseNumber?.trim()) return { address, valid: true };
  const match = numberAtEnd.exec(address.street1.trim());
  if (!match) return { address, valid: false };
  const addition = match[3] && !address.houseNumberExtension ? ` and addition "${match[3]}"` : '';
  warnings.add('coerced', `house number ${match[2]}${addition} taken from the street "${address.street1.trim()}"`, streetPath);
  return {
    address: {
      ...address,
      street1: match[1],
      houseNumber: match[2],
      houseNumberExtension: address.houseNumberExtension || match[3] || null,
    },
    valid: true,
  };
}
