module codeslice.local/gold-go

go 1.19
