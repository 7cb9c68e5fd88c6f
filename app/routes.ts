import { type RouteConfig, index, route } from "@react-router/dev/routes";

// The product's sitemap: the spec's route table, then what we add. Paths match case-insensitively.
export default [
  index("routes/home.tsx"),
  route("menuItemDetails/:menuItemId", "routes/shop/menu-item-details.tsx"),
  route("shoppingCart", "routes/shop/shopping-cart.tsx"),
  route("login", "routes/auth/login.tsx"),
  route("register", "routes/auth/register.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("authentication", "routes/auth/authentication.tsx"),
  route("authorization", "routes/auth/authorization.tsx"),
  route("accessDenied", "routes/auth/access-denied.tsx"),
  route("payment", "routes/shop/payment.tsx"),
  route("order/orderconfirmed/:id", "routes/shop/order-confirmed.tsx"),
  route("failed", "routes/shop/failed.tsx"),
  route("order/myOrders", "routes/shop/my-orders.tsx"),
  route("order/orderDetails/:id", "routes/shop/order-details.tsx"),
  route("order/allOrders", "routes/shop/all-orders.tsx"),
  route("sms/sendSms", "routes/sms/send-sms.tsx"),
  route("sms/scheduleSms", "routes/sms/schedule-sms.tsx"),
  route("sms/messageHistory", "routes/sms/message-history.tsx"),
  route("sms/createContact", "routes/sms/create-contact.tsx"),
  route("sms/accountContacts", "routes/sms/account-contacts.tsx"),
  route("sms/createGroup", "routes/sms/create-group.tsx"),
  route("sms/accountGroups", "routes/sms/account-groups.tsx"),
  route("sms/apiToken", "routes/sms/api-token.tsx"),
  route("sms/support", "routes/content/support.tsx"),
  route("sms/contact", "routes/content/contact.tsx"),
  route("sms/termsandconditions", "routes/content/terms.tsx"),
  route("sms/documentation", "routes/sms/documentation.tsx"),
  route("sms/blog", "routes/content/blog.tsx"),
  route("blog/:slug", "routes/content/blog-article.tsx"),
  route("menuItem/menuitemlist", "routes/shop/menu-item-list.tsx"),
  route("menuItem/menuItemUpsert/:id?", "routes/shop/menu-item-upsert.tsx"),

  // Beyond the spec's table.
  route("sms/scheduled", "routes/sms/scheduled.tsx"),
  route("payment/return", "routes/shop/payment-return.tsx"),
  route("payment/webhook/stripe", "routes/shop/stripe-webhook.tsx"),
  route("admin/support", "routes/content/support-inbox.tsx"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
