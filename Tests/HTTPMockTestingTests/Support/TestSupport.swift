// Every file of this test target sends requests with TestSupport's `fetch`.
@_exported import TestSupport
