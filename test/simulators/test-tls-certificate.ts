// A self-signed certificate for 127.0.0.1 and localhost (P-256, valid to 2126), for simulators that serve
// TLS in tests. Test-only: the key is public on purpose. Generated with
// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1`.
export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgz3b74uK0NflTxsrn
jMT1PtER0snVNM8ojXMHiVsNTzGhRANCAASebKRweUmk/w8irpdQd7abv0E4sfZL
BB+qxreBFGCjKo6mUeUpZwDqbyXS/ALpWyGXrekyICr+OQXALlorCbC0
-----END PRIVATE KEY-----
`;
export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgIUMYEX99P9iWXQAfeE2WVVCtQtxt4wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNDEyNTQyNloYDzIxMjYxMDMx
MTI1NDI2WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASebKRweUmk/w8irpdQd7abv0E4sfZLBB+qxreBFGCjKo6mUeUpZwDq
byXS/ALpWyGXrekyICr+OQXALlorCbC0o28wbTAdBgNVHQ4EFgQU8G6AaWPK7xaO
5MgjNsRmVyBzLiYwHwYDVR0jBBgwFoAU8G6AaWPK7xaO5MgjNsRmVyBzLiYwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSQAwRgIhAJZCxTD1CxpNRREIvDrP9hcEcKyChKZiCkNgpcBaGO5cAiEA
3suEXu08736SEfeDFij3cj0WFJM45F3jlBac24nPYrQ=
-----END CERTIFICATE-----
`;
