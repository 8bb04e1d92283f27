// An address (delivery, billing) or a pick-up point, as lines on an envelope.
interface AddressLike {
  attributes: {
    firstName?: string | null;
    lastName?: string | null;
    company?: string | null;
    name?: string | null;
    street1: string | null;
    houseNumber: string | null;
    houseNumberExtension: string | null;
    street2: string | null;
    postcode: string | null;
    city: string | null;
    countryCode: string;
  };
}

export function AddressBlock({ title, address }: { title: string; address: AddressLike | undefined }) {
  const lines = address
    ? [
        [address.attributes.firstName, address.attributes.lastName].filter(Boolean).join(' '),
        address.attributes.company ?? address.attributes.name,
        [address.attributes.street1, address.attributes.houseNumber, address.attributes.houseNumberExtension].filter(Boolean).join(' '),
        address.attributes.street2,
        [address.attributes.postcode, address.attributes.city].filter(Boolean).join(' '),
        address.attributes.countryCode,
      ].filter(Boolean)
    : [];
  return (
    <section className="panel" aria-label={title}>
      <h3>{title}</h3>
      {lines.length ? (
        <address>
          {lines.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </address>
      ) : (
        <p className="muted">None</p>
      )}
    </section>
  );
}
