package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

type HookSidecar struct {
	Image           string   `json:"image,omitempty"`
	ImagePullPolicy string   `json:"imagePullPolicy"`
	Command         []string `json:"command,omitempty"`
	Args            []string `json:"args,omitempty"`
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var s string
		json.Unmarshal(sc.Bytes(), &s)
		var l []HookSidecar
		err := json.Unmarshal([]byte(s), &l)
		if err != nil {
			fmt.Println(err.Error())
		} else {
			fmt.Println("ok")
		}
	}
}
