// DeviceModel (in progress).
