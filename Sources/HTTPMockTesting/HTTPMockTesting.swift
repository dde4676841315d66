// Assertions, waiting, a Swift Testing trait and journal folder reading for tests of code that uses HTTPMock.
// The only product of the package that imports a test framework.
@_exported import HTTPMock
