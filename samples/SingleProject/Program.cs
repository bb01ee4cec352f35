Console.WriteLine("Single project built with CloneCopy.");
