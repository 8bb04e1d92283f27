// A first order with the typed client, the example the guides show next to curl. Against your sandbox:
//   SHOPAPI_PASSWORD='the password npm start printed' npx tsx client/examples/first-order.ts
import { createShopApiClient } from '@shopapi/client';

const api = createShopApiClient({
  baseUrl: process.env.SHOPAPI_URL ?? 'http://127.0.0.1:8080',
  username: process.env.SHOPAPI_USERNAME ?? 'demo',
  password: process.env.SHOPAPI_PASSWORD ?? '',
});

// The client's own order types (ids differ per client): GET /settings/get.
const settings = await api.GET('/settings/get');
if (!settings.data) throw new Error(`settings: ${settings.response.status}`);
const orderType = settings.data.result.orderTypes[0];

// A product to order. The token is fetched on the first call and renewed before it expires.
const sku = `MUG-${Date.now()}`;
const product = await api.POST('/v3/products', { body: { data: { type: 'product', attributes: { sku, name: 'Mug' } } } });
if (product.error) throw new Error(JSON.stringify(product.error.errors));

const order = await api.POST('/v3/orders', {
  params: { query: { include: 'orderItems' } },
  body: {
    data: {
      type: 'order',
      attributes: { externalOrderNumber: `SHOP-${Date.now()}`, locale: 'nl-NL', email: 'jane@example.com' },
      relationships: {
        orderType: { data: { type: 'orderType', id: orderType.id } },
        deliveryAddress: { data: { type: 'address', id: 'home' } },
      },
    },
    included: [
      {
        type: 'address',
        id: 'home',
        attributes: {
          firstName: 'Jane',
          lastName: 'Jansen',
          street1: 'Kerkstraat',
          houseNumber: '12',
          postcode: '4701AB',
          city: 'Roosendaal',
          countryCode: 'NL',
        },
      },
      { type: 'orderItem', attributes: { sku, quantity: 1, price: 9.95, vat: 0.21 } },
    ],
  },
});
if (order.error) throw new Error(JSON.stringify(order.error.errors));
console.log(`order ${order.data.data.id}: ${order.data.data.attributes.externalOrderNumber}`);

// Every order, a page at a time behind the scenes.
let count = 0;
for await (const each of api.paginate('/v3/orders', { 'page[size]': 50 })) {
  if (each.attributes.externalOrderNumber) count++;
}
console.log(`${count} orders in all`);
