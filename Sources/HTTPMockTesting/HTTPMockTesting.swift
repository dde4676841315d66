@_exported import HTTPMock
