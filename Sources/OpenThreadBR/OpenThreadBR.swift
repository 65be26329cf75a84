// The typed otbr-agent client (in progress).
